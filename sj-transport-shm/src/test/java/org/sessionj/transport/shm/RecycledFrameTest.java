package org.sessionj.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.HeapFrame;

/** The frames of an in-JVM connection are SJ's heap frames and go back to the writer when the reader releases them. */
class RecycledFrameTest {
    private final ShmConnection[] ends = ShmConnection.pair(null);
    private final ShmConnection writer = ends[0];
    private final ShmConnection reader = ends[1];

    @Test
    void aFrameTheReaderReleasedIsTheWritersNextOneEmpty() throws Exception {
        Frame first = writer.newFrame(256);
        assertThat(first).isInstanceOf(HeapFrame.class);
        first.writeInt(7);
        writer.writeFrame(first);
        Frame received = reader.readFrame(-1);
        assertThat(received).isSameAs(first);
        assertThat(received.readInt()).isEqualTo(7);
        received.release();

        Frame second = writer.newFrame(256);
        assertThat(second).isSameAs(first);
        assertThat(second.readableBytes()).isZero();
        second.writeInt(8);
        writer.writeFrame(second);
        assertThat(reader.readFrame(-1).readInt()).isEqualTo(8);
    }

    @Test
    void aFrameStillHeldByTheReaderIsNotHandedOutAgain() throws Exception {
        Frame first = writer.newFrame(16);
        writer.writeFrame(first.writeByte(1));
        Frame held = reader.readFrame(-1);
        Frame second = writer.newFrame(16);
        assertThat(second).isNotSameAs(held);
        held.release();
        second.release();
        // Only one spare is kept: the second release leaves its frame to the collector.
        assertThat(writer.newFrame(16)).isSameAs(held);
        assertThat(writer.newFrame(16)).isNotSameAs(held).isNotSameAs(second);
    }

    @Test
    void aFrameThatGrewLargeIsLeftToTheCollector() throws Exception {
        Frame big = writer.newFrame(16);
        big.writeBytes(new byte[HeapFrame.MAX_RECYCLED + 1]);
        writer.writeFrame(big);
        reader.readFrame(-1).release();
        assertThat(writer.newFrame(16)).isNotSameAs(big);
    }

    @Test
    void framesReleasedAfterTheReaderClosedAreNotKept() throws Exception {
        Frame first = writer.newFrame(16);
        writer.writeFrame(first.writeByte(1));
        Frame held = reader.readFrame(-1);
        reader.close();
        held.release();
        assertThat(writer.newFrame(16)).isNotSameAs(held);
    }

    @Test
    void aBufferWrittenIsCopiedAndReleasedAtOnceSoNothingQueuedNeedsARelease() throws Exception {
        ByteBuf queued = Unpooled.buffer(16);
        writer.write(queued.writeByte(1).writeByte(2));
        assertThat(queued.refCnt()).as("released by the write, before any read or close").isZero();
        Frame received = reader.readFrame(-1);
        assertThat(received).isInstanceOf(HeapFrame.class);
        assertThat(received.readByte()).isEqualTo((byte) 1);
        assertThat(received.readByte()).isEqualTo((byte) 2);
        received.release();
    }

    @Test
    void framesQueuedWhenTheReaderClosesAreLeftToTheCollectorNotKept() throws Exception {
        Frame heap = writer.newFrame(16);
        writer.writeFrame(heap.writeByte(2));
        reader.close();
        // No drain, no release: nothing queued holds more than heap memory; the frame is never a spare again.
        assertThat(writer.newFrame(16)).isNotSameAs(heap);
        assertThatThrownBy(() -> reader.readFrame(-1)).isInstanceOf(java.io.IOException.class);
    }

    @Test
    void aReleasedFrameCannotBeReleasedAgain() throws Exception {
        Frame frame = writer.newFrame(16);
        writer.writeFrame(frame.writeByte(1));
        Frame received = reader.readFrame(-1);
        received.release();
        assertThatThrownBy(received::release).isInstanceOf(IllegalStateException.class).hasMessageContaining("twice");
    }

    /** Both kinds of frame travel in one order; each reads as the other (a heap frame as a buffer is a copy). */
    @Test
    void buffersAndHeapFramesMixInOrder() throws Exception {
        writer.write(Unpooled.buffer().writeInt(1));
        Frame heap = writer.newFrame(16);
        writer.writeFrame(heap.writeInt(2));
        writer.writeReference(heap); // a reference that is a frame is not taken for one
        writer.writeFrame(writer.newFrame(4).writeInt(3));
        Frame one = reader.readFrame(-1);
        assertThat(one.readInt()).isEqualTo(1);
        one.release();
        ByteBuf two = reader.read(-1);
        assertThat(two.readInt()).isEqualTo(2);
        two.release();
        assertThatThrownBy(heap::release).as("the copy released the heap frame")
                .isInstanceOf(IllegalStateException.class);
        Frame three = reader.readFrame(-1);
        assertThat(three.readInt()).isEqualTo(3);
        assertThat(reader.readReference()).isSameAs(heap);
        three.release();
        assertThat(writer.frameBuffer(8)).isInstanceOf(ByteBuf.class);
    }

    /**
     * A connection whose reader waits for more than a tick of the orphan watch (half the orphan
     * timeout) keeps no spare frame in either direction: an idle session does not hold two buffers.
     */
    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aReaderParkedForAWhileLetsGoOfTheSpareFramesOfBothDirections() throws Exception {
        ShmConnection[] pair = ShmConnection.pair(null, new ShmSettings(1 << 20, TimeUnit.MILLISECONDS.toNanos(40)));
        ShmConnection requester = pair[0];
        ShmConnection accepter = pair[1];
        Frame there = requester.newFrame(16);
        requester.writeFrame(there.writeByte(1));
        accepter.readFrame(-1).release();
        Frame back = accepter.newFrame(16);
        accepter.writeFrame(back.writeByte(2));
        requester.readFrame(-1).release();
        assertThat(requester.hasSpare()).isTrue();
        assertThat(accepter.hasSpare()).isTrue();

        // The requester waits; the watch looks every 20 ms and drops the spares at its second look.
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                Frame frame = requester.readFrame(TimeUnit.SECONDS.toNanos(15));
                int value = frame.readByte();
                frame.release();
                return value;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        while (requester.hasSpare() || accepter.hasSpare()) {
            Thread.onSpinWait();
            assertThat(waiting).isNotDone();
        }
        Frame next = accepter.newFrame(16);
        assertThat(next).isNotSameAs(back);
        accepter.writeFrame(next.writeByte(3));
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(3);
        // Busy again: the frame just released is kept for the next write.
        assertThat(accepter.hasSpare()).isTrue();
    }
}
