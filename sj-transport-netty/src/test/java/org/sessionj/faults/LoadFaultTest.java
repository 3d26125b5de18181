package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;

/**
 * Load and misbehaving peers that stay alive: 10,000 sessions in a row, a reader that stops reading,
 * and a thousand idle connections next to a real client. Each checks what both JVMs hold afterwards.
 *
 * <p>Bounds: {@code faults.sendTimeoutMillis} (the send timeout set for the slow-reader test, default 2000; the
 * blocked send must fail within it and {@code faults.sendTimeoutSlackMillis}, default 5000) and
 * {@code faults.idleServeBoundMillis} (a real client among idle connections, default 2000).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LoadFaultTest {
    private static final int SESSIONS = Integer.getInteger("faults.sessions", 10_000);
    private static final long SEND_TIMEOUT_MILLIS = Long.getLong("faults.sendTimeoutMillis", 2_000);
    private static final String SEND_TIMEOUT = SEND_TIMEOUT_MILLIS + "ms";
    /** How much longer than the send timeout the blocked send may take to fail (a loaded machine's scheduling). */
    private static final long SEND_TIMEOUT_SLACK = Long.getLong("faults.sendTimeoutSlackMillis", 5_000);
    private static final long IDLE_SERVE_BOUND = Long.getLong("faults.idleServeBoundMillis", 2_000);
    private static final int IDLE_CONNECTIONS = Integer.getInteger("faults.idleConnections", 1_000);

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "ipc"})
    void tenThousandSessionsInARowLeakNothingOnEitherSide(String transport) throws Exception {
        String[] config = PeerFaultTest.config(transport);
        List<String> peerOptions = config.length > 1 ? List.of("-D" + config[1] + "=" + config[2]) : List.of();
        SJRuntime runtime = FaultSupport.runtime(config[0], java.util.Arrays.copyOfRange(config, 1, config.length));
        try (FaultSupport.Peer peer = FaultSupport.start(peerOptions, config[0], "ping", Integer.toString(SESSIONS))) {
            SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", peer.port());
            ping(service, 100);
            FaultSupport.Snapshot before = FaultSupport.Snapshot.take();
            long peerFds = peer.fds();
            int peerThreads = peer.threads();
            long start = System.nanoTime();
            long pid = ProcessHandle.current().pid();
            int mostRingFiles = 0;
            for (int done = 100; done < SESSIONS; done += 500) {
                ping(service, Math.min(500, SESSIONS - done));
                // While it runs, this JVM keeps no more ring files than its pool's bound (all its sessions
                // are closed between two batches).
                int ringFiles = FaultSupport.ringFilesOf(pid).size();
                mostRingFiles = Math.max(mostRingFiles, ringFiles);
                assertThat(ringFiles).as("this JVM's ring files after %d sessions (pool bound %d): %s", done,
                        FaultSupport.POOL_BOUND, FaultSupport.describeIpcFiles(FaultSupport.listIpcFiles()))
                        .isLessThanOrEqualTo(FaultSupport.POOL_BOUND);
            }
            long millis = FaultSupport.millisSince(start);
            System.out.printf("FAULTS %s memory files: at most %d of this JVM while running (pool bound %d); at the end: %s%n",
                    transport, mostRingFiles, FaultSupport.POOL_BOUND, FaultSupport.describeIpcFiles(FaultSupport.listIpcFiles()));
            System.out.printf("FAULTS %d sessions over %s in %d ms (%.0f sessions/s); peer fds %d -> %d, threads %d -> %d%n",
                    SESSIONS - 100, transport, millis, (SESSIONS - 100) * 1000.0 / Math.max(1, millis), peerFds, peer.fds(),
                    peerThreads, peer.threads());
            assertThat(peer.fds()).as("the peer's file descriptors").isLessThanOrEqualTo(peerFds + 16);
            assertThat(peer.threads()).as("the peer's threads").isLessThanOrEqualTo(peerThreads + 2);
            assertThat(peer.next("SERVED ").strip()).isEqualTo(Integer.toString(SESSIONS));
            FaultSupport.Snapshot.take().assertNothingLeakedSince(before, 16);
        }
    }

    private static void ping(SJService service, int sessions) {
        for (int i = 0; i < sessions; i++) {
            try (SJSocket s = service.request()) {
                s.send(i);
                assertThat(s.receiveInt()).isEqualTo(i + 1);
            }
        }
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "ipc"})
    void aReaderThatStopsReadingBlocksTheWriterOnlyUntilTheSendTimeout(String transport) throws Exception {
        String[] config = PeerFaultTest.config(transport);
        List<String> peerOptions = config.length > 1 ? List.of("-D" + config[1] + "=" + config[2]) : List.of();
        String[] extra = config.length > 1
                ? new String[] {config[1], config[2], "sessionj.sendTimeout", SEND_TIMEOUT}
                : new String[] {"sessionj.sendTimeout", SEND_TIMEOUT};
        SJRuntime runtime = FaultSupport.runtime(config[0], extra);
        FaultSupport.Snapshot before;
        try (FaultSupport.Peer peer = FaultSupport.start(peerOptions, config[0], "flooding")) {
            SJSocket session = runtime.service(FaultProtocols.Flooding.class, "localhost", peer.port()).request();
            peer.next("READY ");
            // After the session opened, as the other tests do after a warm-up session: the event loops,
            // carriers and ipc doorbell threads start once and are not what the slow reader leaves behind.
            before = FaultSupport.Snapshot.take();
            byte[] chunk = new byte[64 * 1024];
            long sent = 0;
            long sendStarted = System.nanoTime();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            Throwable failure = null;
            long peakDirect = 0;
            while (failure == null && System.nanoTime() < deadline) {
                try {
                    sendStarted = System.nanoTime();
                    session.outwhile(true);
                    session.send(chunk);
                    sent += chunk.length;
                    peakDirect = Math.max(peakDirect, FaultSupport.Snapshot.take().nettyDirectBytes());
                } catch (RuntimeException | OutOfMemoryError e) {
                    failure = e;
                }
            }
            long stalled = FaultSupport.millisSince(sendStarted);
            System.out.printf("FAULTS slow reader over %s: %d MiB sent, then the last send failed after %d ms (send"
                    + " timeout %d ms): %s; peak direct %d MiB%n", transport, sent >> 20, stalled, SEND_TIMEOUT_MILLIS,
                    failure, peakDirect >> 20);
            assertThat(failure).as("the writer is stopped by the send timeout (%s), not by running out of memory or"
                    + " the test's patience", SEND_TIMEOUT).isInstanceOf(SJTimeoutException.class);
            assertThat(failure.getMessage()).as("names the session and the pending action")
                    .contains("send timeout", "while this side of", "sent, before");
            assertThat(stalled).as("the blocked send ends within the send timeout (%d ms) and %d ms",
                    SEND_TIMEOUT_MILLIS, SEND_TIMEOUT_SLACK).isLessThan(SEND_TIMEOUT_MILLIS + SEND_TIMEOUT_SLACK);
            assertThat(peakDirect).as("the backlog toward a reader that stopped is bounded").isLessThan(256L << 20);
            session.close();
            peer.kill();
        }
        FaultSupport.Snapshot.take().assertNothingLeakedSince(before, 8);
    }

    @Test
    void aThousandIdleConnectionsDoNotDelayARealClientAndLeaveNothingWhenClosed() throws Exception {
        SJRuntime runtime = FaultSupport.runtime("tcp");
        try (FaultSupport.Peer peer = FaultSupport.start(List.of(), "tcp", "serve")) {
            int port = peer.port();
            SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", port);
            ping(service, 1);
            peer.next("SERVED ");
            long peerFds = peer.fds();
            int peerThreads = peer.threads();
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < IDLE_CONNECTIONS; i++) {
                    Socket socket = new Socket();
                    socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                    if (i % 2 == 1) {
                        socket.getOutputStream().write(new byte[] {0, 0}); // half a frame header, then nothing
                    }
                    idle.add(socket);
                }
                long start = System.nanoTime();
                ping(service, 1);
                long served = FaultSupport.millisSince(start);
                System.out.printf("FAULTS real client served in %d ms next to %d idle connections%n", served, idle.size());
                assertThat(served).as("a real client next to idle connections").isLessThan(IDLE_SERVE_BOUND);
            } catch (SJIOException e) {
                throw new AssertionError("a real client next to " + idle.size() + " idle connections failed", e);
            } finally {
                for (Socket socket : idle) {
                    socket.close();
                }
            }
            ping(service, 10);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (peer.fds() > peerFds + 16 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(peer.fds()).as("the peer's descriptors once the idle connections closed")
                    .isLessThanOrEqualTo(peerFds + 16);
            assertThat(peer.threads()).as("the peer's threads").isLessThanOrEqualTo(peerThreads + 4);
        }
    }
}
