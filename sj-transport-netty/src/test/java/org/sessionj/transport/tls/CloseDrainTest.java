package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettyConnection;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.transport.tcp.TcpTransport;

/**
 * A close after a burst delivers the whole burst although bytes from the peer wait unread at the closing end (frames
 * its program never read past the inbound mark, a heartbeat, TLS's answering close_notify). The close handed the last
 * frames to the kernel and closed the socket; a socket closed with bytes unread, or receiving some after, is reset by
 * the kernel, and the RST throws away what it had not yet sent and fails the reader with "Connection reset by peer":
 * over tls a reader once got 39 of 40 frames. Now the closing end shuts its output down after the last frame (after
 * close_notify over tls) and reads and drops what the peer sends until the peer's end, at most the linger of 10 s, so
 * nothing is left unread in its socket when it closes. The peer here is a plain socket (a TLS socket over tls) that
 * first sends more than the closing end's inbound mark, which its program never reads, then reads the burst.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CloseDrainTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final KeyMaterial KEY = Certificates.selfSigned("localhost", Certificates.localhostNames());
    private static final int FRAMES = 16;
    private static final int FRAME = 1 << 20;

    @Test
    void aBurstClosedAtOnceArrivesWholeOverTcpThoughThePeerSentWhatWasNeverRead() throws Exception {
        Transport transport = new TcpTransport(NettySettings.fromSystemProperties(), TcpTransport.IoMode.EVENT_LOOP);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = track(new Socket(InetAddress.getLoopbackAddress(), acceptor.port()));
        burstThenClose((NettyConnection) track(acceptor.accept(10 * SECOND)), raw);
    }

    @Test
    void aBurstClosedAtOnceArrivesWholeOverTlsThoughThePeerSentWhatWasNeverRead() throws Exception {
        Transport transport = new TlsTransport(TlsConfig.builder().keyMaterial(KEY).trust(KEY.certificate()).build());
        ConnectionAcceptor acceptor = track(transport.listen(0));
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLSocket tls = track((SSLSocket) context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                acceptor.port()));
        tls.setSoTimeout(20_000);
        tls.startHandshake();
        assertThat(tls.getInputStream().readNBytes(4)).as("the server's greeting").isEqualTo("SJT1".getBytes());
        burstThenClose((NettyConnection) track(acceptor.accept(10 * SECOND)), tls);
    }

    /**
     * {@code peer} sends a frame of 1 MiB, one of 4 MiB and a heartbeat, which {@code writer}'s program never reads
     * (its connection stops reading past its inbound mark: the rest waits in the socket); then {@code writer} sends
     * {@link #FRAMES} frames of 1 MiB and closes, and {@code peer} reads them all and the end.
     */
    private static void burstThenClose(NettyConnection writer, Socket peer) throws Exception {
        peer.setSoTimeout(20_000);
        Thread.ofPlatform().daemon().name("unread-sender").start(() -> {
            try {
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(peer.getOutputStream(), 1 << 16));
                out.writeInt(FRAME);
                out.write(new byte[FRAME]);
                out.writeInt(4 * FRAME);
                out.write(new byte[4 * FRAME]);
                out.writeInt(-1); // a heartbeat
                out.flush();
            } catch (IOException e) {
                // the writer's socket went away under this write (without the fix, an RST)
            }
        });
        long deadline = System.nanoTime() + 20 * SECOND;
        while (!writer.readPaused()) {
            assertThat(System.nanoTime()).as("waiting for the writer to stop reading").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> {
            try {
                for (int i = 0; i < FRAMES; i++) {
                    writer.write(writer.alloc().buffer(FRAME).writeInt(i).writeZero(FRAME - 4));
                }
                writer.flush();
                writer.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        DataInputStream in = new DataInputStream(peer.getInputStream());
        byte[] body = new byte[FRAME];
        int received = 0;
        try {
            for (; received < FRAMES; received++) {
                assertThat(in.readInt()).as("frame %d's length", received).isEqualTo(FRAME);
                in.readFully(body);
                assertThat(body[0] << 24 | (body[1] & 0xff) << 16 | (body[2] & 0xff) << 8 | (body[3] & 0xff))
                        .as("frame %d's index", received).isEqualTo(received);
            }
            assertThat(in.read()).as("the end after the burst").isEqualTo(-1);
        } catch (SocketException | EOFException e) {
            throw new AssertionError("after " + received + " of " + FRAMES + " frames: " + e, e);
        }
        closed.get(25, TimeUnit.SECONDS);
    }
}
