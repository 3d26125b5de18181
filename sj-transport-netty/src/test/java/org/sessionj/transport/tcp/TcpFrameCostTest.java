package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettyConnection;
import org.sessionj.transport.netty.internal.NettySettings;

/**
 * Each queued frame is charged its bytes plus {@link NettyConnection#FRAME_COST} against the inbound and outbound
 * marks (hostile H6): the marks counted bytes only, so a peer that pipelined 16-byte frames and never read the
 * answers made a connection queue ~60,000 frame objects each way, ~8 MB of heap for the 1.5 MiB the marks allow.
 * A frame written is charged its capacity, the memory it holds, rather than its bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpFrameCostTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void queuedFramesAreChargedTheirBytesAndAPerFrameCostEachWay() throws Exception {
        TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties(), TcpTransport.IoMode.EVENT_LOOP);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = track(new Socket("localhost", acceptor.port()));
        NettyConnection accepted = (NettyConnection) track(acceptor.accept(10 * SECOND));

        // Ten 12-byte frames in, not read: charged 10 × (12 + FRAME_COST).
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        for (int i = 0; i < 10; i++) {
            out.writeInt(12);
            out.write(new byte[12]);
        }
        out.flush();
        long deadline = System.nanoTime() + 20 * SECOND;
        while (accepted.inboundCharge() != 10L * (12 + NettyConnection.FRAME_COST)) {
            assertThat(System.nanoTime()).as("waiting for the ten frames to be charged 10 × (12 + %d); charged %d",
                    NettyConnection.FRAME_COST, accepted.inboundCharge()).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        for (int i = 0; i < 10; i++) {
            accepted.read(10 * SECOND).release();
        }
        assertThat(accepted.inboundCharge()).as("nothing charged once read").isZero();

        // Ten 9-byte frames out, not flushed (far under the outbound mark): charged 10 × (9 + FRAME_COST).
        Connection writer = accepted;
        for (int i = 0; i < 10; i++) {
            writer.write(writer.alloc().heapBuffer(9).writerIndex(9));
        }
        assertThat(accepted.outboundCharge()).isEqualTo(10L * (9 + NettyConnection.FRAME_COST));
        writer.flush();
        deadline = System.nanoTime() + 20 * SECOND;
        while (accepted.outboundCharge() > 0) {
            assertThat(System.nanoTime()).as("waiting for the frames to reach the channel").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertThat(raw.getInputStream().readNBytes(10 * (4 + 9))).hasSize(130);

        // A 9-byte answer in a message's usual 256-byte frame holds the 256: it is charged its capacity. By its bytes,
        // 60 peers that never read their answers held 75 MB of frames under marks that allowed 30 MiB.
        writer.write(writer.frameBuffer(256).writeZero(9));
        assertThat(accepted.outboundCharge()).isEqualTo(256 + NettyConnection.FRAME_COST);
        writer.flush();
        assertThat(raw.getInputStream().readNBytes(4 + 9)).hasSize(13);
    }
}
