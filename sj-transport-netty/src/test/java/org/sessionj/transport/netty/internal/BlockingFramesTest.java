package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import org.sessionj.runtime.spi.support.HeapFrame;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.runtime.spi.support.RecyclableFrame;

/**
 * A blocking TCP connection reuses its frames, one per direction: the writer's next frame is the one it
 * wrote last, and a frame read is the one the reader released last. Before, every frame was a pooled
 * Netty buffer, allocated and freed twice per round trip on each side (with the leak detector's stack
 * trace for one in 128).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BlockingFramesTest {
    private final List<AutoCloseable> opened = new ArrayList<>();
    private Socket peer;

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    private BlockingConnection accepted() throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open();
        opened.add(server);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        peer = new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort());
        opened.add(peer);
        BlockingConnection connection = new BlockingConnection(server.accept(), "tcp",
                NettySettings.fromSystemProperties().withHeartbeat(Heartbeat.OFF));
        opened.add(0, connection::close);
        return connection;
    }

    @Test
    void theWritersNextFrameIsTheOneItWroteLast() throws Exception {
        BlockingConnection connection = accepted();
        ByteBuf first = connection.frameBuffer(16);
        assertThat(first).isInstanceOf(RecyclableFrame.class);
        connection.write(first.writeInt(1));
        connection.flush();
        ByteBuf second = connection.frameBuffer(16);
        assertThat(second).as("the frame written last, emptied").isSameAs(first);
        assertThat(second.readableBytes()).isZero();
        connection.write(second.writeInt(2));
        connection.flush();
        DataInputStream in = new DataInputStream(peer.getInputStream());
        assertThat(new long[] {in.readLong(), in.readLong()}).containsExactly((4L << 32) | 1, (4L << 32) | 2);
    }

    /**
     * A session's batch is written and flushed in one step ({@code writeFrameAndFlush}, one hold of the write
     * lock): it reaches the peer at once, behind anything written before, the frame comes back for the next
     * write, and on a closed connection it fails and still gives the frame back.
     */
    @Test
    void aBatchIsWrittenAndFlushedInOneStepAndAFailedOneGivesItsFrameBack() throws Exception {
        BlockingConnection connection = accepted();
        Frame earlier = connection.newFrame(16);
        connection.writeFrame(earlier.writeInt(1)); // buffered, not flushed
        Frame batch = connection.newFrame(16);
        connection.writeFrameAndFlush(batch.writeInt(2));
        DataInputStream in = new DataInputStream(peer.getInputStream());
        assertThat(new long[] {in.readLong(), in.readLong()}).containsExactly((4L << 32) | 1, (4L << 32) | 2);
        Frame next = connection.newFrame(16);
        assertThat(next).as("the batch's frame, emptied").isSameAs(batch);
        connection.close();
        assertThatThrownBy(() -> connection.writeFrameAndFlush(next.writeInt(3))).hasMessageContaining("closed");
        assertThat(connection.newFrame(16)).as("given back although the write failed").isSameAs(next);
    }

    /**
     * The session layer's frames ({@link org.sessionj.runtime.spi.FrameConnection}) are SJ's heap frames,
     * recycled per direction as the buffers are: no Netty buffer, view or reference count on the path of a
     * message.
     */
    @Test
    void theSessionLayersFramesAreHeapFramesRecycledPerDirection() throws Exception {
        BlockingConnection connection = accepted();
        Frame first = connection.newFrame(16);
        assertThat(first).isInstanceOf(HeapFrame.class);
        connection.writeFrame(first.writeInt(1));
        connection.flush();
        Frame second = connection.newFrame(16);
        assertThat(second).as("the frame written last, emptied").isSameAs(first);
        assertThat(second.readableBytes()).isZero();
        connection.writeFrame(second.writeInt(2));
        connection.flush();
        DataInputStream in = new DataInputStream(peer.getInputStream());
        assertThat(new long[] {in.readLong(), in.readLong()}).containsExactly((4L << 32) | 1, (4L << 32) | 2);

        DataOutputStream out = new DataOutputStream(peer.getOutputStream());
        for (int i = 1; i <= 2; i++) {
            out.writeInt(4);
            out.writeInt(i);
        }
        out.flush();
        Frame read = connection.readFrame(-1);
        assertThat(read).isInstanceOf(HeapFrame.class);
        assertThat(read.readInt()).isEqualTo(1);
        read.release();
        Frame again = connection.readFrame(-1);
        assertThat(again).as("the frame released last, refilled").isSameAs(read);
        assertThat(again.readInt()).isEqualTo(2);
        again.release();
    }

    /**
     * A frame of another kind (a delegated session's unread input from a connection of another transport)
     * is written whole, small ones copied behind their length and large ones written from where they are,
     * and each is released.
     */
    @Test
    void framesOfOtherKindsAndLargeOnesAreWrittenWholeAndReleased() throws Exception {
        BlockingConnection connection = accepted();
        ByteBuf direct = Unpooled.directBuffer(8).writeInt(7).writeInt(8);
        direct.readInt(); // only the unread bytes go
        connection.writeFrame(new ByteBufFrame(direct));
        byte[] large = new byte[100_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) i;
        }
        HeapFrame big = HeapFrame.copyOf(large, 0, large.length);
        big.readByte(); // from the reader index on
        connection.writeFrame(big);
        connection.flush();
        assertThat(direct.refCnt()).as("the buffer was released").isZero();
        assertThatThrownBy(big::release).as("the large frame was released").isInstanceOf(IllegalStateException.class);
        DataInputStream in = new DataInputStream(peer.getInputStream());
        assertThat(in.readInt()).isEqualTo(4);
        assertThat(in.readInt()).isEqualTo(8);
        assertThat(in.readInt()).isEqualTo(large.length - 1);
        byte[] got = new byte[large.length - 1];
        in.readFully(got);
        assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(large, 1, large.length));
    }

    @Test
    void aFrameReadIsTheOneTheReaderReleasedLast() throws Exception {
        BlockingConnection connection = accepted();
        DataOutputStream out = new DataOutputStream(peer.getOutputStream());
        for (int i = 1; i <= 2; i++) {
            out.writeInt(4);
            out.writeInt(i);
        }
        out.flush();
        ByteBuf first = connection.read(-1);
        assertThat(first).isInstanceOf(RecyclableFrame.class);
        assertThat(first.readInt()).isEqualTo(1);
        first.release();
        ByteBuf second = connection.read(-1);
        assertThat(second).as("the frame released last, refilled").isSameAs(first);
        assertThat(second.readInt()).isEqualTo(2);
        second.release();
    }
}
