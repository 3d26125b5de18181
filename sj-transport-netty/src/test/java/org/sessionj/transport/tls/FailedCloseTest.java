package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.FrameDecoder;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.transport.tcp.TcpTransport;

/**
 * A failed session's close ({@link Connection#closeFailed}) does not wait for a peer that takes nothing, over tcp
 * (event loops and blocking sockets) and tls: the session layer calls it on every failure path
 * ({@code FailedSessionCloseTest} in sj-runtime). Before, the failed session's {@code close()} waited up to the
 * 10 s linger for such a peer while a frame written last (the failure notice) waited to be sent, holding the
 * program's thread (an honest client waited behind a failed one in the tally demo's selector loop), and the
 * watchdog that ended the wait dropped that frame. The peer here fills both kernels' buffers (it stops reading as
 * soon as the writer's 8 MiB frame has all gone into the kernel), a last frame is written, the connection is closed
 * as failed, and only then does the peer read again: it gets every frame and the end. A close that waited for the
 * peer would not return until the linger's watchdog closed the socket, and the last frame would be lost; the test
 * asserts what arrives, not how long the close took (printed).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FailedCloseTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final KeyMaterial KEY = Certificates.selfSigned("localhost", Certificates.localhostNames());
    /** Far more than the kernels hold for a peer that reads nothing (the writer's send buffer, up to 4 MiB). */
    private static final int BIG = 8 << 20;
    /** The last frame: more than the room the kernel has left once the peer stops, less than the outbound mark. */
    private static final int LAST = 60 * 1024;

    @ParameterizedTest
    @EnumSource(TcpTransport.IoMode.class)
    void aFailedCloseOverTcpDoesNotWaitForThePeerAndWhatWasWrittenStillArrives(TcpTransport.IoMode mode)
            throws Exception {
        Transport transport = new TcpTransport(NettySettings.fromSystemProperties(), mode);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = track(new Socket());
        raw.setReceiveBufferSize(4096);
        raw.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), acceptor.port()), 10_000);
        failWhileThePeerTakesNothing(track(acceptor.accept(10 * SECOND)), raw, mode.name());
    }

    @Test
    void aFailedCloseOverTlsDoesNotWaitForThePeerAndWhatWasWrittenStillArrives() throws Exception {
        Transport transport = new TlsTransport(TlsConfig.builder().keyMaterial(KEY).trust(KEY.certificate()).build());
        ConnectionAcceptor acceptor = track(transport.listen(0));
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLSocket tls = track((SSLSocket) context.getSocketFactory().createSocket());
        tls.setReceiveBufferSize(4096);
        tls.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), acceptor.port()), 10_000);
        tls.setSoTimeout(20_000);
        tls.startHandshake();
        assertThat(tls.getInputStream().readNBytes(4)).as("the server's greeting").isEqualTo("SJT1".getBytes());
        failWhileThePeerTakesNothing(track(acceptor.accept(10 * SECOND)), tls, "tls");
    }

    private static void failWhileThePeerTakesNothing(Connection writer, Socket peer, String what) throws Exception {
        peer.setSoTimeout(20_000);
        CompletableFuture<Void> big = CompletableFuture.runAsync(() -> {
            try {
                writer.write(writer.alloc().heapBuffer(BIG).writeZero(BIG));
                writer.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, r -> Thread.ofPlatform().daemon().name("big-writer").start(r));
        DataInputStream in = new DataInputStream(peer.getInputStream());
        int length = nextFrameLength(in);
        assertThat(length).isEqualTo(BIG);
        // Read the big frame only until the writer is done with it: the kernels' buffers are then full (or nearly).
        byte[] chunk = new byte[4096];
        int left = length;
        while (!big.isDone() && left > 0) {
            int n = in.read(chunk, 0, Math.min(chunk.length, left));
            assertThat(n).as("the big frame's bytes").isPositive();
            left -= n;
        }
        big.get(20, TimeUnit.SECONDS);

        byte[] last = new byte[LAST];
        last[0] = 42;
        last[LAST - 1] = 43;
        writer.write(writer.alloc().heapBuffer(LAST).writeBytes(last)); // not flushed: as the failure notice is
        long start = System.nanoTime();
        writer.closeFailed();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.println("FailedCloseTest " + what + ": closeFailed returned in " + tookMillis + " ms with "
                + left + " bytes of the big frame and the last frame unread by the peer");
        assertThat(writer.isClosed()).isTrue();

        in.readFully(new byte[left]); // the peer reads again: the rest of the big frame,
        assertThat(nextFrameLength(in)).as("the last frame's length").isEqualTo(LAST);
        byte[] got = new byte[LAST];
        in.readFully(got); // the last frame (lost, were the close to wait for the peer until the linger ended it),
        assertThat(got[0]).isEqualTo((byte) 42);
        assertThat(got[LAST - 1]).isEqualTo((byte) 43);
        assertThat(endAfterHeartbeats(in)).as("the end after the last frame").isTrue(); // and the end
    }

    /** The next frame's length, heartbeats skipped. */
    private static int nextFrameLength(DataInputStream in) throws IOException {
        int length;
        do {
            length = in.readInt();
        } while (length == FrameDecoder.HEARTBEAT);
        return length;
    }

    /** Whether the stream ends, heartbeats skipped. */
    private static boolean endAfterHeartbeats(InputStream in) throws IOException {
        byte[] header = new byte[FrameDecoder.HEADER_BYTES];
        while (true) {
            int n = in.readNBytes(header, 0, header.length);
            if (n == 0) {
                return true;
            }
            if (n < header.length || java.nio.ByteBuffer.wrap(header).getInt() != FrameDecoder.HEARTBEAT) {
                return false;
            }
        }
    }
}
