package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJService;
import org.sessionj.runtime.SJRuntime;

/**
 * A flood of connections that each send one byte and stall (a slowloris), against a server in a
 * peer JVM with default settings and a 128 MiB heap: a real client is served next to them, the
 * server holds a bounded number of them (the pending-handshake limit, the acceptor's queue, the
 * kernel's backlog: the rest wait to connect), and once they close nothing is left.
 *
 * <p>Bounds: {@code faults.floodConnections} (10,000), {@code faults.floodServeBoundMillis} (a real
 * client next to them, default 15,000: before the stalled handshakes were dropped at the limit, it
 * waited for the 30 s initiation timeout of 4,096 of them, again and again).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class HostileFaultTest {
    private static final int CONNECTIONS = Integer.getInteger("faults.floodConnections", 10_000);
    private static final long SERVE_BOUND = Long.getLong("faults.floodServeBoundMillis", 15_000);

    /**
     * Connections that send heartbeats and never a request, queued behind a full set of handshakes, count
     * their time from their accept, and stalled handshakes are shed in growing batches: a server whose limit
     * is 16 handshakes and whose initiation timeout (and so stall time) is 3 s, flooded with 320 such
     * connections, serves a real client that connected after them within {@code faults.shedServeBoundMillis}
     * (30 s). Before, each of the 20 waves of 16 taken from the queue had its 3 s counted from the start of
     * its handshake, so the client waited 20 × 3 s, a minute (the cause of the blocking-tcp slowloris of the
     * eleventh session: behind 8,000 stalled connections a real client waited more than 30 s). The
     * heartbeats keep the server's heartbeat timeout (20 s) from closing the queued ones, as it closed a
     * silent flood; the event loops do not count them as bytes, so a handshake of such a connection is
     * shed as silent, while blocking tcp cannot tell them from a requester still sending (so there its
     * initiation timeout ends it, counted from its accept).
     */
    @Test
    void heartbeatingConnectionsQueuedBehindAFullSetOfHandshakesDoNotHoldARealClientForAStallTimeEach()
            throws Exception {
        SJRuntime runtime = FaultSupport.runtime("tcp", "sessionj.initiationTimeout", "120s");
        try (FaultSupport.Peer peer = FaultSupport.start(List.of("-Dsessionj.maxPendingHandshakes=" + SHED_LIMIT,
                "-Dsessionj.initiationTimeout=3s"), "tcp", "serve")) {
            int port = peer.port();
            SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", port);
            FaultSupport.ping(service);
            peer.next("SERVED ");
            List<Socket> flood = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicBoolean beating = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread heartbeats = Thread.ofPlatform().daemon().name("flood-heartbeats").start(() -> {
                byte[] heartbeat = {-1, -1, -1, -1}; // a frame header of length -1: a heartbeat
                while (beating.get()) {
                    for (Socket socket : flood) {
                        try {
                            socket.getOutputStream().write(heartbeat);
                        } catch (IOException e) {
                            // closed by the server: nothing more to keep alive
                        }
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // a rate, not a wait for anything
                }
            });
            try {
                for (int i = 0; i < SHED_CONNECTIONS; i++) {
                    Socket socket = new Socket();
                    socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                    flood.add(socket);
                }
                long served = System.nanoTime();
                FaultSupport.ping(service);
                long servedMillis = FaultSupport.millisSince(served);
                System.out.printf("FAULTS %d connections sending heartbeats and no request to a server with a limit of"
                        + " %d handshakes and a 3 s initiation timeout: real client served in %d ms (one wave per stall"
                        + " time: %d s)%n", SHED_CONNECTIONS, SHED_LIMIT, servedMillis, SHED_CONNECTIONS / SHED_LIMIT * 3);
                assertThat(servedMillis).as("a real client behind %d stalled connections, %d handshakes at a time",
                        SHED_CONNECTIONS, SHED_LIMIT).isLessThan(SHED_SERVE_BOUND);
            } finally {
                beating.set(false);
                heartbeats.join();
                for (Socket socket : flood) {
                    socket.close();
                }
            }
        }
    }

    private static final int SHED_LIMIT = 16;
    private static final int SHED_CONNECTIONS = 320;
    private static final long SHED_SERVE_BOUND = Long.getLong("faults.shedServeBoundMillis", 30_000);

    @Test
    void tenThousandConnectionsSendingOneByteEachDoNotLockOutARealClient() throws Exception {
        SJRuntime runtime = FaultSupport.runtime("tcp");
        try (FaultSupport.Peer peer = FaultSupport.start(List.of("-Xmx128m"), "tcp", "serve")) {
            int port = peer.port();
            SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", port);
            FaultSupport.ping(service);
            peer.next("SERVED ");
            long peerFds = peer.fds();
            int peerThreads = peer.threads();
            long peerRss = peer.rssKib();
            List<Socket> flood = new ArrayList<>();
            int notConnected = 0;
            long start = System.nanoTime();
            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    Socket socket = new Socket();
                    try {
                        socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                        socket.getOutputStream().write(0); // one byte of a frame header, then nothing
                        flood.add(socket);
                    } catch (IOException e) {
                        notConnected++; // the server's backlog is full: the attacker waits too
                        socket.close();
                    }
                }
                long flooded = FaultSupport.millisSince(start);
                long fdsDuring = peer.fds();
                long rssDuring = peer.rssKib();
                long served = System.nanoTime();
                FaultSupport.ping(service);
                long servedMillis = FaultSupport.millisSince(served);
                System.out.printf("FAULTS %d connections sending one byte (%d could not connect) in %d ms; real client"
                        + " served in %d ms next to them; peer fds %d -> %d, RSS %d -> %d MiB%n", CONNECTIONS,
                        notConnected, flooded, servedMillis, peerFds, fdsDuring, peerRss >> 10, rssDuring >> 10);
                assertThat(servedMillis).as("a real client next to %d stalled connections", CONNECTIONS)
                        .isLessThan(SERVE_BOUND);
                assertThat(fdsDuring - peerFds).as("connections the server holds: at most the pending limit and the"
                        + " acceptor's queue").isLessThanOrEqualTo(4096 + 4096 + 64);
            } finally {
                for (Socket socket : flood) {
                    socket.close();
                }
            }
            FaultSupport.ping(service);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (peer.fds() > peerFds + 16 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(peer.fds()).as("the peer's descriptors once the flood closed").isLessThanOrEqualTo(peerFds + 16);
            assertThat(peer.threads()).as("the peer's threads").isLessThanOrEqualTo(peerThreads + 4);
        }
    }
}
