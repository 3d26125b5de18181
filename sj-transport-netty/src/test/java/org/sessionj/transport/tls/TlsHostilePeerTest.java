package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.transport.tcp.PingRounds;
import org.sessionj.transport.tcp.SessionProtocols;

/**
 * Peers that complete their TLS handshake honestly and lie afterwards: garbage frames, a frame header
 * claiming 2 GiB, a record that does not decrypt, a record cut off by a close, data after their
 * close_notify. Each costs the server only its own connection, closed long before the initiation
 * timeout (30 s here, so a close within the 20 s read timeout is the server's refusal, not its
 * deadline), with its handshake slot back and no memory taken for what it claimed; a real client is
 * served after all of them.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TlsHostilePeerTest {
    private SilentTlsPeers peers;

    @BeforeEach
    void configureTls(@TempDir Path dir) throws IOException {
        peers = new SilentTlsPeers(dir);
    }

    @AfterEach
    void clear() throws IOException {
        peers.close();
    }

    private static SJRuntime server() {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("tls").initiationTimeout(Duration.ofSeconds(30))
                .build());
    }

    /** A TLS connection (handshake done, the server's greeting read) layered on {@code plain}, which it does not close. */
    private static SSLSocket honestHandshake(Socket plain, int port) throws Exception {
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, "localhost", port, false);
        tls.setSoTimeout(20_000);
        tls.startHandshake();
        byte[] greeting = tls.getInputStream().readNBytes(4);
        assertThat(new String(greeting, StandardCharsets.US_ASCII)).as("the server's greeting").isEqualTo("SJT1");
        return tls;
    }

    @Test
    void liesAfterAnHonestTlsHandshakeCostOnlyTheirOwnConnection() throws Exception {
        SJRuntime client = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
        try (SJServerSocket socket = server().serverSocket(SessionProtocols.PingServer.class, 0)) {
            Queue<SJException> told = new ConcurrentLinkedQueue<>();
            SJRuntime.onFailedHandshake(socket, told::add);

            // A frame that is no session request, and a frame header claiming 2 GiB, inside TLS.
            byte[][] frames = {{0, 0, 0, 3, 0x7f, 1, 2}, {0x7f, 0, 0, 0}};
            for (byte[] frame : frames) {
                SSLSocket tls = honestHandshake(peers.silent(null, socket.port()), socket.port());
                tls.getOutputStream().write(frame);
                tls.getOutputStream().flush();
                assertThat(SilentTlsPeers.closedByServer(tls)).as("closed after the frame %s", frame[0]).isTrue();
            }

            // An application-data record whose contents do not decrypt (the MAC fails).
            Socket plain = peers.silent(null, socket.port());
            honestHandshake(plain, socket.port());
            OutputStream raw = plain.getOutputStream();
            raw.write(record(0x17, 64));
            raw.flush();
            assertThat(SilentTlsPeers.closedByServer(plain)).as("closed after a record that does not decrypt").isTrue();

            // A record header claiming 16 KiB, 10 bytes of it, then the peer closes.
            Socket cut = peers.silent(null, socket.port());
            honestHandshake(cut, socket.port());
            byte[] partial = new byte[15];
            System.arraycopy(record(0x17, 0x4000), 0, partial, 0, partial.length);
            cut.getOutputStream().write(partial);
            cut.getOutputStream().flush();
            cut.shutdownOutput();
            assertThat(SilentTlsPeers.closedByServer(cut)).as("closed after a record cut off by a close").isTrue();

            // close_notify, then more data in the clear and in a record.
            Socket notify = peers.silent(null, socket.port());
            SSLSocket tls = honestHandshake(notify, socket.port());
            tls.shutdownOutput(); // TLS 1.3 half-close: sends close_notify
            notify.getOutputStream().write(new byte[] {0, 0, 0, 3, 0x7f, 1, 2});
            notify.getOutputStream().write(record(0x17, 32));
            notify.getOutputStream().flush();
            assertThat(SilentTlsPeers.closedByServer(notify)).as("closed after data past close_notify").isTrue();

            SessionServerSocket counted = (SessionServerSocket) socket;
            SilentTlsPeers.await(() -> counted.pendingHandshakes() == 0, "every slot back");
            // The two frame liars are refused session requests, counted with what was expected and found.
            SilentTlsPeers.await(() -> SJRuntime.failedHandshakes(socket) >= 2, "the frame liars counted");
            assertThat(told).extracting(Throwable::getMessage).anySatisfy(m -> assertThat(m)
                    .contains("length 2130706432 exceeds the maximum frame size"));
            PingRounds.run(client, socket, 3);
        }
    }

    /** A TLS 1.2-versioned record header of {@code type} and {@code length}, then that many bytes of noise. */
    private static byte[] record(int type, int length) {
        byte[] bytes = new byte[5 + length];
        bytes[0] = (byte) type;
        bytes[1] = 3;
        bytes[2] = 3;
        bytes[3] = (byte) (length >>> 8);
        bytes[4] = (byte) length;
        for (int i = 5; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }
}
