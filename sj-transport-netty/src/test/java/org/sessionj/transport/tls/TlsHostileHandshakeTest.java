package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.transport.tcp.PingRounds;
import org.sessionj.transport.tcp.SessionProtocols;

/**
 * Peers that lie at the TLS layer itself, before any session byte: one that sends bytes which are no
 * ClientHello (an HTTP request, an SJ frame sent in the clear), and one that sends a real ClientHello and
 * then stalls half-way through the handshake (a slowloris at the TLS layer). Each must cost the server only
 * its own connection, for a bounded time (the initiation timeout from the accept; before, a stalled
 * handshake was held for the TLS handler's 10 s), and give its handshake slot back; a real client is served after.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsHostileHandshakeTest {
    private SilentTlsPeers peers;

    @BeforeEach
    void configureTls(@TempDir Path dir) throws IOException {
        peers = new SilentTlsPeers(dir);
    }

    @AfterEach
    void clear() throws IOException {
        peers.close();
    }

    /** A tls server whose handshakes (TLS and session) must finish within 3 s of the accept. */
    private static SJRuntime server() {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("tls").initiationTimeout(Duration.ofSeconds(3))
                .build());
    }

    @Test
    void bytesThatAreNoClientHelloCloseTheConnectionAndGiveItsSlotBack() throws Exception {
        SJRuntime client = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
        try (SJServerSocket socket = server().serverSocket(SessionProtocols.PingServer.class, 0)) {
            Queue<SJException> told = new ConcurrentLinkedQueue<>();
            SJRuntime.onFailedHandshake(socket, told::add);
            byte[][] lies = {
                "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                {0, 0, 0, 5, 'S', 'J', 'T', '1', 0}, // an SJ frame in the clear
                {0x16, 0x03, 0x01, (byte) 0xff, (byte) 0xff, 1, 2, 3}, // a handshake record claiming 64 KiB
            };
            for (byte[] lie : lies) {
                Socket s = peers.silent(null, socket.port());
                s.getOutputStream().write(lie);
                s.getOutputStream().flush();
                if (lie[0] != 0x16) {
                    assertThat(SilentTlsPeers.closedByServer(s)).as("closed after %s", Arrays.toString(lie)).isTrue();
                }
            }
            // The truncated record waits for the rest; the initiation timeout (3 s) closes it.
            long start = System.nanoTime();
            assertThat(SilentTlsPeers.closedByServer(peers.raw.get(2))).as("the truncated record's connection closed")
                    .isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("ms until it was closed")
                    .isLessThan(9_000);
            SessionServerSocket counted = (SessionServerSocket) socket;
            SilentTlsPeers.await(() -> counted.pendingHandshakes() == 0, "every slot back");
            // Each is a failed handshake, counted and told with what was expected and found: before, the
            // two that are no TLS at all were closed and only logged at DEBUG (the count was 1).
            SilentTlsPeers.await(() -> told.size() == 3, "three failed handshakes told");
            assertThat(SJRuntime.failedHandshakes(socket)).isEqualTo(3);
            assertThat(told).extracting(Throwable::getMessage).anySatisfy(m -> assertThat(m).contains(
                    "the requester's tls handshake failed: expected a TLS record (a ClientHello), found 47 45 54 20 2f"
                    + " 20 48 54 54 50 2f 31 2e 31 0d 0a …"));
            assertThat(told).extracting(Throwable::getMessage).anySatisfy(m -> assertThat(m).contains(
                    "expected a TLS record (a ClientHello), found 00 00 00 05 53 4a 54 31 00;"));
            assertThat(told).extracting(Throwable::getMessage).anySatisfy(m -> assertThat(m).contains(
                    "expected the requester's tls handshake to succeed within PT3S"));
            PingRounds.run(client, socket, 3);
            assertThat(SJRuntime.failedHandshakes(socket)).as("a real client is no failure").isEqualTo(3);
        }
    }

    @Test
    void aClientHelloFollowedByNothingIsClosedAtTheInitiationTimeout() throws Exception {
        SJRuntime client = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
        try (SJServerSocket socket = server().serverSocket(SessionProtocols.PingServer.class, 0)) {
            Queue<SJException> told = new ConcurrentLinkedQueue<>();
            SJRuntime.onFailedHandshake(socket, told::add);
            Socket s = peers.silent(null, socket.port());
            OutputStream out = s.getOutputStream();
            out.write(clientHello());
            out.flush();
            long start = System.nanoTime();
            // The server answers (ServerHello …) and then waits for a Finished that never comes.
            assertThat(SilentTlsPeers.closedByServer(s)).as("closed by the server within 20 s").isTrue();
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // The bound is the initiation timeout (3 s from the accept), not the TLS handler's own 10 s:
            // before, this connection was closed after 10.0 s.
            assertThat(tookMs).as("ms until the server closed the stalled handshake").isLessThan(9_000);
            SessionServerSocket counted = (SessionServerSocket) socket;
            SilentTlsPeers.await(() -> counted.pendingHandshakes() == 0, "its slot back");
            SilentTlsPeers.await(() -> !told.isEmpty(), "the failed handshake told");
            assertThat(told).first().isInstanceOf(SJTimeoutException.class).extracting(Throwable::getMessage).asString()
                    .contains("expected the requester's tls handshake to succeed within PT3S of its accept"
                            + " (sessionj.initiationTimeout), found it unfinished");
            assertThat(SJRuntime.failedHandshakes(socket)).isEqualTo(1);
            PingRounds.run(client, socket, 3);
        }
    }

    /** The first flight of a real TLS client (its ClientHello record), made by a JDK engine. */
    private static byte[] clientHello() throws Exception {
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLEngine engine = context.createSSLEngine("localhost", 443);
        engine.setUseClientMode(true);
        engine.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        assertThat(hello[0]).as("a handshake record").isEqualTo((byte) 0x16);
        return hello;
    }
}
