package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.sessionj.runtime.spi.support.UnfinishedFrames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FrameAssembler}: frames cut from chunks of any size (whole frames straight out of a chunk
 * when nothing partial is held, the rest through the cumulation), bad lengths refused naming what was
 * found, and every chunk released exactly once.
 */
class FrameAssemblerTest {
    private final FrameAssembler assembler = new FrameAssembler(PooledByteBufAllocator.DEFAULT, 1024);
    private final List<byte[]> frames = new ArrayList<>();

    @AfterEach
    void release() {
        assembler.release();
    }

    private void feed(ByteBuf chunk) throws IOException {
        assembler.feed(chunk, frame -> {
            frames.add(ByteBufUtil.getBytes(frame));
            frame.release();
        });
    }

    private static ByteBuf stream(byte[]... payloads) {
        ByteBuf b = Unpooled.buffer();
        for (byte[] p : payloads) {
            b.writeInt(p.length).writeBytes(p);
        }
        return b;
    }

    @Test
    void wholeFramesInOneChunkAreCutAndTheChunkReleased() throws IOException {
        ByteBuf chunk = stream(new byte[] {1, 2, 3, 4}, new byte[0], new byte[] {5});
        feed(chunk);
        assertThat(frames).containsExactly(new byte[] {1, 2, 3, 4}, new byte[0], new byte[] {5});
        assertThat(chunk.refCnt()).isZero();
        assertThat(assembler.partialBytes()).isZero();
    }

    @Test
    void framesSplitAtEveryByteBoundaryComeOutWhole() throws IOException {
        byte[] a = {10, 11, 12, 13, 14, 15, 16};
        byte[] b = {20, 21};
        byte[] all = ByteBufUtil.getBytes(stream(a, b, a));
        for (int cut = 1; cut < all.length; cut++) {
            frames.clear();
            ByteBuf first = Unpooled.wrappedBuffer(all, 0, cut);
            ByteBuf second = Unpooled.wrappedBuffer(all, cut, all.length - cut);
            feed(first);
            feed(second);
            assertThat(frames).as("cut at %d", cut).containsExactly(a, b, a);
            assertThat(assembler.partialBytes()).isZero();
            assertThat(first.refCnt()).isZero();
            assertThat(second.refCnt()).isZero();
        }
    }

    @Test
    void aPartialFrameWaitsForTheRest() throws IOException {
        ByteBuf whole = stream(new byte[] {1}, new byte[] {2, 3, 4});
        ByteBuf head = whole.readRetainedSlice(5 + 2); // the first frame and half of the second's length
        feed(head);
        assertThat(frames).containsExactly(new byte[] {1});
        assertThat(assembler.partialBytes()).isEqualTo(2);
        feed(whole);
        assertThat(frames).containsExactly(new byte[] {1}, new byte[] {2, 3, 4});
    }

    @Test
    void aLengthOverTheMaximumIsRefusedAndTheChunkReleased() {
        ByteBuf chunk = Unpooled.buffer().writeInt(1025).writeZero(8);
        assertThatThrownBy(() -> feed(chunk)).isInstanceOf(IOException.class)
                .hasMessageContaining("length 1025").hasMessageContaining("over the maximum frame size of 1024");
        assertThat(chunk.refCnt()).isZero();
    }

    @Test
    void aNegativeLengthAfterAPartialFrameIsRefused() throws IOException {
        feed(Unpooled.buffer().writeByte(0xff)); // one byte of a length: held
        ByteBuf rest = Unpooled.buffer().writeByte(0xff).writeByte(0xff).writeByte(0xfe);
        assertThatThrownBy(() -> feed(rest)).isInstanceOf(IOException.class).hasMessageContaining("negative");
    }

    /**
     * A frame one byte per chunk (a peer's one-byte WebSocket messages or uploads, hostile17 H4) is held
     * in buffers of up to {@link FrameAssembler#TAIL_BYTES} bytes, not one component per byte (was
     * ~260 bytes of heap per byte, invisible to every bound, which counts bytes): a few buffers, and the
     * frame comes out whole with its bytes in order.
     */
    @Test
    void aFrameSentOneBytePerChunkIsHeldInAFewBuffers() throws IOException {
        int length = 100_000;
        FrameAssembler big = new FrameAssembler(PooledByteBufAllocator.DEFAULT, 1 << 20,
                new UnfinishedFrames(1 << 30, Duration.ofMinutes(10), 1), () -> "peer", () -> 0, reason -> { });
        try {
            byte[] payload = new byte[length];
            new Random(7).nextBytes(payload);
            byte[] all = ByteBufUtil.getBytes(stream(payload, new byte[] {42}));
            List<ByteBuf> fed = new ArrayList<>();
            int fedBytes = 0;
            for (; fedBytes < FrameAssembler.HEADER_BYTES + length - 1; fedBytes++) {
                ByteBuf one = Unpooled.wrappedBuffer(all, fedBytes, 1);
                fed.add(one);
                big.feed(one, frame -> {
                    frames.add(ByteBufUtil.getBytes(frame));
                    frame.release();
                });
            }
            assertThat(frames).isEmpty();
            assertThat(big.partialBytes()).isEqualTo(fedBytes);
            assertThat(big.heldBuffers()).as("buffers held for %d bytes", fedBytes)
                    .isLessThanOrEqualTo(FrameAssembler.HEADER_BYTES + length / FrameAssembler.TAIL_BYTES + 2);
            assertThat(fed.subList(FrameAssembler.HEADER_BYTES, fed.size())) // the header's are components
                    .allMatch(b -> b.refCnt() == 0, "every chunk after the header released once copied");
            ByteBuf rest = Unpooled.wrappedBuffer(all, fedBytes, all.length - fedBytes); // the last byte, the next frame
            big.feed(rest, frame -> {
                frames.add(ByteBufUtil.getBytes(frame));
                frame.release();
            });
            assertThat(frames).containsExactly(payload, new byte[] {42});
            assertThat(big.partialBytes()).isZero();
            assertThat(big.heldBuffers()).isZero();
            assertThat(rest.refCnt()).isZero();
        } finally {
            big.release();
        }
    }

    /** Chunks of every size around the copy limit, across frames: the frames come out as they were sent. */
    @Test
    void chunksOfMixedSizesAroundTheCopyLimitMakeTheSameFrames() throws IOException {
        FrameAssembler big = new FrameAssembler(PooledByteBufAllocator.DEFAULT, 1 << 20,
                new UnfinishedFrames(1 << 30, Duration.ofMinutes(10), 1), () -> "peer", () -> 0, reason -> { });
        try {
            Random random = new Random(11);
            List<byte[]> sent = new ArrayList<>();
            ByteBuf wire = Unpooled.buffer();
            for (int i = 0; i < 40; i++) {
                byte[] p = new byte[random.nextInt(3) == 0 ? random.nextInt(20) : random.nextInt(30_000)];
                random.nextBytes(p);
                sent.add(p);
                wire.writeInt(p.length).writeBytes(p);
            }
            while (wire.isReadable()) {
                int n = Math.min(wire.readableBytes(), random.nextBoolean() ? 1 + random.nextInt(8)
                        : FrameAssembler.SMALL_PIECE - 2 + random.nextInt(5));
                big.feed(wire.readRetainedSlice(n), frame -> {
                    frames.add(ByteBufUtil.getBytes(frame));
                    frame.release();
                });
            }
            wire.release();
            assertThat(frames).containsExactlyElementsOf(sent);
            assertThat(big.partialBytes()).isZero();
        } finally {
            big.release();
        }
    }
}
