package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJService;
import org.sessionj.runtime.SJRuntime;

/**
 * The ninth session's replayed-ClientHello finding, against a tls server in a peer JVM: one captured
 * ClientHello sent on {@code faults.replays} (1,000) connections from 127.0.0.2, none of them ever
 * finishing its handshake (each costs the server a key exchange and a signature), while a real client
 * connects from 127.0.0.1. Before the per-address cap, 1,000 of them held a real client 7–12 s (load 20);
 * now 127.0.0.2 holds at most {@code sessionj.tls.maxHandshakesPerAddress} (64) handshakes and the rest
 * are closed before any cryptography.
 *
 * <p>Bound: {@code faults.replayServeBoundMillis} (a real client next to them, default 5,000).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class TlsReplayFaultTest {
    private static final int REPLAYS = Integer.getInteger("faults.replays", 1_000);
    private static final long SERVE_BOUND = Long.getLong("faults.replayServeBoundMillis", 5_000);

    /** The first flight of a TLS 1.3 client: its ClientHello, as an attacker would capture it. */
    private static byte[] clientHello() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("localhost", 443);
        engine.setUseClientMode(true);
        engine.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }

    @Test
    void oneAddressReplayingAClientHelloOnAThousandConnectionsDoesNotHoldBackARealClient() throws Exception {
        // tls always runs on the event loops: the suite's second run (blocking tcp) would repeat the first.
        assumeFalse("blocking".equals(System.getProperty("sessionj.tcp.io")), "tls does not use sessionj.tcp.io");
        FaultSupport.configureTls();
        SJRuntime runtime = FaultSupport.runtime("tls");
        byte[] hello = clientHello();
        try (FaultSupport.Peer peer = FaultSupport.start(List.of(), "tls", "serve")) {
            int port = peer.port();
            SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", port);
            FaultSupport.ping(service);
            peer.next("SERVED ");
            List<Socket> replays = new ArrayList<>();
            int failed = 0;
            long start = System.nanoTime();
            try {
                for (int i = 0; i < REPLAYS; i++) {
                    Socket s = new Socket();
                    try {
                        s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
                        s.getOutputStream().write(hello);
                        replays.add(s);
                    } catch (IOException e) {
                        failed++; // refused, reset, or the backlog full: the attacker waits too
                        s.close();
                    }
                }
                long replayedMillis = FaultSupport.millisSince(start);
                long served = System.nanoTime();
                FaultSupport.ping(service);
                long servedMillis = FaultSupport.millisSince(served);
                System.out.printf("FAULTS %d connections from 127.0.0.2 replaying one ClientHello (%d failed to send) in"
                        + " %d ms; real client from 127.0.0.1 served in %d ms next to them%n", REPLAYS, failed,
                        replayedMillis, servedMillis);
                assertThat(servedMillis).as("a real client next to %d replayed ClientHellos", REPLAYS).isLessThan(SERVE_BOUND);
            } finally {
                for (Socket s : replays) {
                    s.close();
                }
            }
            FaultSupport.ping(service);
        }
    }
}
