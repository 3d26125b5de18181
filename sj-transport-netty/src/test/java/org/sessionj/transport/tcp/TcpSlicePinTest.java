package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.FrameDecoder;
import org.sessionj.transport.netty.internal.NettyConnection;
import org.sessionj.transport.netty.internal.NettySettings;

/**
 * hostile18 H10 in process: one connection whose peer sends 64 KiB chunks, each one 10-byte frame padded with
 * heartbeats, to a program that reads nothing. Each frame was a slice that kept its 64 KiB read buffer, charged 138
 * bytes; the heartbeats were charged nothing; so the connection's 1 MiB mark never tripped and the server's direct
 * memory filled (256 MiB), and honest requesters were refused. Now the flood of heartbeats fails the connection, the
 * frames it sent were copied out of their read buffers, and the pooled direct memory does not grow with what the
 * peer sends; another connection is served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpSlicePinTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int CHUNK = 64 * 1024;
    private static final int CHUNKS = 400; // 25 MiB

    /** One chunk of the attack: a 10-byte frame, then heartbeats to 64 KiB. */
    private static byte[] chunk() {
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        chunk.putInt(10).put(new byte[10]);
        while (chunk.remaining() >= FrameDecoder.HEADER_BYTES) {
            chunk.putInt(FrameDecoder.HEARTBEAT);
        }
        return chunk.array();
    }

    @Test
    void tinyFramesPaddedWithHeartbeatsPinNoReadBuffersAndTheFloodFailsItsConnection() throws Exception {
        TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties(), TcpTransport.IoMode.EVENT_LOOP);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        long directBefore = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
        Socket raw = track(new Socket("localhost", acceptor.port()));
        NettyConnection attacked = (NettyConnection) track(acceptor.accept(10 * SECOND));

        CompletableFuture<Integer> sent = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("slice-pinning-peer").start(() -> {
            int chunks = 0;
            try {
                OutputStream out = raw.getOutputStream();
                byte[] chunk = chunk();
                for (; chunks < CHUNKS; chunks++) {
                    out.write(chunk);
                }
                out.flush();
            } catch (IOException e) {
                // the server closed the connection under the flood
            }
            sent.complete(chunks);
        });

        // The program reads nothing until the peer is done; then what it finds is the frames that came before the
        // flood was recognised, and the failure that names it.
        int chunks = sent.get(30, TimeUnit.SECONDS);
        long directDuring = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory() - directBefore;
        int frames = 0;
        IOException failure = null;
        while (failure == null) {
            try {
                ByteBuf frame = attacked.read(20 * SECOND);
                assertThat(frame).as("a frame or the failure, after %d frames", frames).isNotNull();
                assertThat(frame.readableBytes()).isEqualTo(10);
                frame.release();
                frames++;
            } catch (IOException e) {
                failure = e;
            }
        }
        assertThat(failure).hasMessageContaining("heartbeats beyond one a millisecond");
        assertThat(frames).as("frames before the flood was recognised (%d chunks sent)", chunks).isLessThanOrEqualTo(2);
        assertThat(directDuring).as("pooled direct memory taken while %d chunks (%d KiB) were sent", chunks,
                chunks * (CHUNK / 1024)).isLessThan(16L << 20);

        // An honest peer is served.
        Socket honest = track(new Socket("localhost", acceptor.port()));
        Connection served = track(acceptor.accept(10 * SECOND));
        DataOutputStream out = new DataOutputStream(honest.getOutputStream());
        out.writeInt(3);
        out.write(new byte[] {1, 2, 3});
        out.flush();
        ByteBuf frame = served.read(20 * SECOND);
        assertThat(frame).isNotNull();
        assertThat(frame.readableBytes()).isEqualTo(3);
        frame.release();
    }

    @Test
    void smallFramesEachInItsOwnReadKeepNoReadBuffer() throws Exception {
        TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties(), TcpTransport.IoMode.EVENT_LOOP);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = track(new Socket("localhost", acceptor.port()));
        NettyConnection accepted = (NettyConnection) track(acceptor.accept(10 * SECOND));
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        int count = 50;
        for (int i = 0; i < count; i++) {
            out.writeInt(10);
            out.write(new byte[10]);
            out.flush();
            long charged = (i + 1L) * (10 + NettyConnection.FRAME_COST);
            long deadline = System.nanoTime() + 20 * SECOND;
            while (accepted.inboundCharge() < charged) { // each frame in a read of its own
                assertThat(System.nanoTime()).as("waiting for frame %d", i).isLessThan(deadline);
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
            }
            assertThat(accepted.inboundCharge()).as("a copied 10-byte frame is charged its bytes").isEqualTo(charged);
        }
        for (int i = 0; i < count; i++) {
            ByteBuf frame = accepted.read(10 * SECOND);
            ByteBuf root = frame;
            while (root.unwrap() != null) {
                root = root.unwrap();
            }
            assertThat(root.capacity()).as("memory frame %d keeps while unread (a slice kept its read buffer)", i)
                    .isLessThanOrEqualTo(64);
            frame.release();
        }
        assertThat(accepted.inboundCharge()).isZero();
    }
}
