package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
}
