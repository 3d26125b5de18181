package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteStream#appendFrame}: the bytes a local writer's frames make (each behind its 4-byte
 * length), and that a reader's chunk of small frames is one slice of one buffer, not a composite of
 * header and frame buffers built per read (an allocation per message on every tunnelled connection).
 */
class ByteStreamFrameTest {
    private final Budget budget = new Budget(Long.MAX_VALUE);
    private final ByteStream stream = new ByteStream(1 << 20, budget);
    private final List<ByteBuf> toRelease = new ArrayList<>();

    @AfterEach
    void release() {
        toRelease.forEach(ByteBuf::release);
        stream.dispose();
    }

    private static ByteBuf frame(int length, int seed) {
        ByteBuf frame = Unpooled.buffer(length);
        for (int i = 0; i < length; i++) {
            frame.writeByte(seed + i);
        }
        return frame;
    }

    private ByteStream.Chunk read(long ack, int max) {
        ByteStream.Chunk chunk = stream.read(ack, max);
        if (chunk != null && chunk.bytes() != null) {
            toRelease.add(chunk.bytes());
        }
        return chunk;
    }

    /** Frames as the peer reads them back: length, bytes, length, bytes... */
    private static List<byte[]> frames(ByteBuf bytes) {
        List<byte[]> frames = new ArrayList<>();
        ByteBuf copy = bytes.duplicate();
        while (copy.isReadable()) {
            byte[] frame = new byte[copy.readInt()];
            copy.readBytes(frame);
            frames.add(frame);
        }
        return frames;
    }

    private static byte[] bytesOf(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed + i);
        }
        return b;
    }

    @Test
    void smallFramesReadAsOneSliceOfOneBufferWithTheirLengths() {
        ByteBuf a = frame(4, 1);
        ByteBuf b = frame(100, 7);
        assertThat(stream.appendFrame(a)).isTrue();
        assertThat(stream.appendFrame(b)).isTrue();
        assertThat(a.refCnt()).as("a small frame is copied and released").isZero();
        assertThat(b.refCnt()).isZero();
        assertThat(stream.written()).isEqualTo(4 + 4 + 4 + 100);
        assertThat(budget.used()).isEqualTo(112);

        ByteStream.Chunk chunk = read(0, 1 << 16);
        assertThat(chunk.bytes()).as("one slice, no composite built for the read").isNotInstanceOf(CompositeByteBuf.class);
        assertThat(frames(chunk.bytes())).containsExactly(bytesOf(4, 1), bytesOf(100, 7));
    }

    @Test
    void aWriterAppendsBehindASliceTheReaderStillHoldsWithoutChangingIt() {
        stream.appendFrame(frame(8, 1));
        ByteStream.Chunk first = read(0, 1 << 16);
        stream.appendFrame(frame(8, 50)); // into the same batch buffer, behind the reader's slice
        assertThat(frames(first.bytes())).containsExactly(bytesOf(8, 1));

        ByteStream.Chunk second = read(12, 1 << 16); // acknowledges the first frame
        assertThat(second.offset()).isEqualTo(12);
        assertThat(frames(second.bytes())).containsExactly(bytesOf(8, 50));
        assertThat(frames(first.bytes())).as("the acknowledged slice is still intact while held").containsExactly(bytesOf(8, 1));
        assertThat(budget.used()).isEqualTo(12);
    }

    @Test
    void aFullyAcknowledgedBatchIsReleasedAndTheNextFrameStartsAFreshOne() {
        stream.appendFrame(frame(16, 3));
        // Read past the helper: this slice is released here, and must not be in toRelease at all (a list
        // of released buffers is searched with equals, which reads their bytes).
        ByteStream.Chunk chunk = stream.read(0, 1 << 16);
        ByteBuf batch = chunk.bytes().unwrap();
        chunk.bytes().release();
        assertThat(read(20, 1 << 16)).as("all acknowledged, nothing new").isNull();
        assertThat(batch.refCnt()).as("the acknowledged batch buffer went back to the pool").isZero();

        stream.appendFrame(frame(16, 9));
        assertThat(frames(read(20, 1 << 16).bytes())).containsExactly(bytesOf(16, 9));
        assertThat(budget.used()).isEqualTo(20);
    }

    @Test
    void aFullBatchMovesOnToTheNextWithoutLosingOrderAcrossTheBoundary() {
        int perFrame = ByteStream.SMALL_FRAME;
        int count = 3 * ByteStream.BATCH_BYTES / (perFrame + 4) + 2;
        for (int i = 0; i < count; i++) {
            stream.appendFrame(frame(perFrame, i));
        }
        List<byte[]> got = new ArrayList<>();
        long ack = 0;
        ByteStream.Chunk chunk;
        while ((chunk = read(ack, 1 << 20)) != null) {
            // A chunk may span batch buffers (then it is a composite), but frames never straddle wrongly.
            got.addAll(frames(chunk.bytes()));
            ack = chunk.offset() + chunk.bytes().readableBytes();
        }
        assertThat(got).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(got.get(i)).isEqualTo(bytesOf(perFrame, i));
        }
    }

    @Test
    void aLargeFrameTravelsAsItIsBehindItsLength() {
        ByteBuf large = frame(ByteStream.SMALL_FRAME + 1, 5);
        stream.appendFrame(frame(4, 1));
        stream.appendFrame(large);
        assertThat(large.refCnt()).as("held by the stream, not copied").isEqualTo(1);
        stream.appendFrame(frame(4, 2));
        ByteStream.Chunk chunk = read(0, 1 << 20);
        assertThat(frames(chunk.bytes())).containsExactly(bytesOf(4, 1), bytesOf(ByteStream.SMALL_FRAME + 1, 5),
                bytesOf(4, 2));
        assertThat(stream.written()).isEqualTo(3 * 4 + 4 + 4 + ByteStream.SMALL_FRAME + 1);
    }

    @Test
    void aClosedStreamRefusesAFrameAndReleasesIt() {
        stream.finish();
        ByteBuf small = frame(4, 1);
        ByteBuf large = frame(ByteStream.SMALL_FRAME + 1, 1);
        assertThat(stream.appendFrame(small)).isFalse();
        assertThat(stream.appendFrame(large)).isFalse();
        assertThat(small.refCnt()).isZero();
        assertThat(large.refCnt()).isZero();
        assertThat(budget.used()).isZero();
    }

    @Test
    void aReaderThatLeftDropsTheBatchAndTheWriterStartsNoNewOne() {
        stream.appendFrame(frame(4, 1));
        stream.closeReader("gone");
        assertThat(budget.used()).isZero();
        ByteBuf next = frame(4, 2);
        assertThat(stream.appendFrame(next)).isFalse();
        assertThat(next.refCnt()).isZero();
    }

    /**
     * A remote writer's one-byte segments (a peer's one-byte WebSocket messages or uploads, hostile17 H4)
     * share batch buffers: the capacity counts bytes, so one buffer per byte would hold ~100 bytes of heap
     * per byte allowed. Larger segments are kept as they are; the bytes read back are the bytes sent.
     */
    @Test
    void oneByteSegmentsShareBatchBuffers() {
        int count = 100_000;
        ByteBuf expected = Unpooled.buffer();
        for (int i = 0; i < count; i++) {
            ByteBuf one = Unpooled.buffer(1).writeByte(i);
            expected.writeByte(i);
            assertThat(stream.append(one, i, false)).isEqualTo(ByteStream.Append.ACCEPTED);
            assertThat(one.refCnt()).isZero();
        }
        assertThat(stream.heldBuffers()).isLessThanOrEqualTo(count / ByteStream.BATCH_BYTES + 1);
        ByteBuf large = frame(ByteStream.SMALL_FRAME + 1, 3);
        expected.writeBytes(large, large.readerIndex(), large.readableBytes());
        assertThat(stream.append(large, count, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        ByteBuf after = Unpooled.buffer(1).writeByte(9);
        expected.writeByte(9);
        assertThat(stream.append(after, stream.written(), false)).isEqualTo(ByteStream.Append.ACCEPTED);
        ByteStream.Chunk chunk = read(0, Integer.MAX_VALUE);
        assertThat(chunk.bytes()).isEqualTo(expected);
        expected.release();
    }
}
