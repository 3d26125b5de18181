package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a decoded frame keeps of the buffer it was read into, and the bound on heartbeats (hostile18 H10): a 10-byte
 * frame handed on as a slice of its 64 KiB read buffer, padded with heartbeats, kept the whole buffer while it waited
 * unread, charged 138 bytes; one connection pinned 256 MiB of direct memory that way. A frame smaller than half its
 * buffer is now copied out (the buffer freed at once), and a peer that sends heartbeats faster than one a
 * millisecond beyond a burst fails its connection. Time is the embedded channel's, moved by the test.
 */
class FrameDecoderHoldTest {
    private static final int READ_BUFFER = 64 * 1024;

    private final List<ByteBuf> frames = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();

    @AfterEach
    void releaseFrames() {
        frames.forEach(ByteBuf::release);
    }

    private EmbeddedChannel channel() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(new FrameDecoder(1 << 20), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                frames.add((ByteBuf) msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                failures.add(cause);
            }
        });
        return channel;
    }

    /**
     * A pooled direct read buffer of 64 KiB, as the socket's: one frame of {@code length}, then a thousand heartbeats
     * (a whole buffer of them is more than {@link FrameDecoder#HEARTBEAT_BURST}).
     */
    private static ByteBuf readBuffer(int length) {
        ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(READ_BUFFER, READ_BUFFER);
        buffer.writeInt(length).writeZero(length);
        for (int i = 0; i < 1000 && buffer.writableBytes() >= FrameDecoder.HEADER_BYTES; i++) {
            buffer.writeInt(FrameDecoder.HEARTBEAT);
        }
        return buffer;
    }

    /** The memory {@code frame} keeps: the capacity of the buffer under any slices and wrappers. */
    private static int held(ByteBuf frame) {
        ByteBuf root = frame;
        while (root.unwrap() != null) {
            root = root.unwrap();
        }
        return root.capacity();
    }

    private static ByteBuf heartbeats(int count) {
        ByteBuf buffer = io.netty.buffer.Unpooled.buffer(count * FrameDecoder.HEADER_BYTES);
        for (int i = 0; i < count; i++) {
            buffer.writeInt(FrameDecoder.HEARTBEAT);
        }
        return buffer;
    }

    @Test
    void aSmallFrameIsCopiedOutAndItsReadBufferFreed() {
        EmbeddedChannel channel = channel();
        ByteBuf read = readBuffer(10);
        channel.writeInbound(read);

        assertThat(failures).isEmpty();
        assertThat(frames).hasSize(1);
        assertThat(frames.get(0).readableBytes()).isEqualTo(10);
        assertThat(held(frames.get(0))).as("memory the 10-byte frame keeps while unread").isLessThanOrEqualTo(64);
        assertThat(read.refCnt()).as("the 64 KiB read buffer, back in the pool").isZero();
        channel.finishAndReleaseAll();
    }

    @Test
    void aFrameThatIsMostOfItsBufferIsHandedOnAsASlice() {
        EmbeddedChannel channel = channel();
        int length = READ_BUFFER / 2;
        ByteBuf read = readBuffer(length);
        channel.writeInbound(read);

        assertThat(frames).hasSize(1);
        assertThat(frames.get(0).readableBytes()).isEqualTo(length);
        assertThat(held(frames.get(0))).as("no copy: the frame keeps its buffer, at most twice its bytes")
                .isEqualTo(READ_BUFFER).isLessThanOrEqualTo(2 * length);
        assertThat(read.refCnt()).as("kept by the slice").isOne();
        channel.finishAndReleaseAll();
    }

    @Test
    void aHeartbeatFloodFailsTheConnection() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(heartbeats(FrameDecoder.HEARTBEAT_BURST));
        assertThat(failures).as("a burst of heartbeats (a network stall let out at once)").isEmpty();

        channel.writeInbound(heartbeats(1));
        assertThat(failures).singleElement().isInstanceOf(FrameDecoder.HeartbeatFloodException.class)
                .extracting(Throwable::getMessage).asString().contains("heartbeats beyond one a millisecond");
        channel.finishAndReleaseAll();
    }

    @Test
    void heartbeatsAtOneAMillisecondNeverFail() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(heartbeats(FrameDecoder.HEARTBEAT_BURST));
        for (int i = 0; i < 3 * FrameDecoder.HEARTBEAT_BURST; i += 50) {
            channel.advanceTimeBy(50, TimeUnit.MILLISECONDS);
            channel.writeInbound(heartbeats(50));
        }
        assertThat(failures).isEmpty();

        channel.advanceTimeBy(1, TimeUnit.HOURS); // a long quiet spell refills the burst, not more
        channel.writeInbound(heartbeats(FrameDecoder.HEARTBEAT_BURST));
        assertThat(failures).isEmpty();
        channel.writeInbound(heartbeats(2));
        assertThat(failures).singleElement().isInstanceOf(FrameDecoder.HeartbeatFloodException.class);
        channel.finishAndReleaseAll();
    }
}
