package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.DataOutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettySettings;

/** Blocking TCP against a peer that lies about frame lengths and stalls. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpBlockingHostilePeerTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties(), TcpTransport.IoMode.BLOCKING);

    @Test
    void aHeaderClaimingAHugeFrameAllocatesOnlyWhatArrives() throws Exception {
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = track(new Socket("localhost", acceptor.port()));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        int claimed = NettySettings.fromSystemProperties().maxFrameBytes() - 1; // allowed, 16 MiB by default
        out.writeInt(claimed);
        out.write(new byte[10]); // and then nothing
        out.flush();
        accepted.read(TimeUnit.MILLISECONDS.toNanos(200)); // warm up the read path
        long before = THREADS.getCurrentThreadAllocatedBytes();
        assertThat(accepted.read(TimeUnit.MILLISECONDS.toNanos(300))).as("the frame is not all there").isNull();
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated waiting for a frame claimed to be %d bytes", claimed)
                .isLessThan(1 << 20);
    }

    @Test
    void aLargeFrameSentInPiecesStillArrivesWhole() throws Exception {
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = track(new Socket("localhost", acceptor.port()));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        int length = 3 << 20;
        out.writeInt(length);
        byte[] piece = new byte[64 * 1024];
        for (int sent = 0; sent < length; sent += piece.length) {
            java.util.Arrays.fill(piece, (byte) (sent / piece.length));
            out.write(piece);
            out.flush();
            if (sent + piece.length < length) {
                assertThat(accepted.isReadable()).as("after %d bytes", sent + piece.length).isFalse();
            }
        }
        ByteBuf frame = accepted.read(10 * SECOND);
        try {
            assertThat(frame.readableBytes()).isEqualTo(length);
            assertThat(frame.getByte(length - 1)).isEqualTo((byte) (length / piece.length - 1));
        } finally {
            frame.release();
        }
    }
}
