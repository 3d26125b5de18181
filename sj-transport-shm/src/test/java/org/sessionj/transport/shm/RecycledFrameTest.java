package org.sessionj.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.support.RecyclableFrame;

/** The frames of an in-JVM connection go back to the writer when the reader releases them. */
class RecycledFrameTest {
    private final ShmConnection[] ends = ShmConnection.pair(ByteBufAllocator.DEFAULT);
    private final ShmConnection writer = ends[0];
    private final ShmConnection reader = ends[1];

    @Test
    void aFrameTheReaderReleasedIsTheWritersNextOneEmptyAndWithOneReference() throws Exception {
        ByteBuf first = writer.frameBuffer(256);
        first.writeInt(7);
        writer.write(first);
        ByteBuf received = reader.read(-1);
        assertThat(received).isSameAs(first);
        assertThat(received.readInt()).isEqualTo(7);
        received.release();

        ByteBuf second = writer.frameBuffer(256);
        assertThat(second).isSameAs(first);
        assertThat(second.refCnt()).isEqualTo(1);
        assertThat(second.readableBytes()).isZero();
        second.writeInt(8);
        writer.write(second);
        assertThat(reader.read(-1).readInt()).isEqualTo(8);
    }

    @Test
    void aFrameStillHeldByTheReaderIsNotHandedOutAgain() throws Exception {
        ByteBuf first = writer.frameBuffer(16);
        writer.write(first.writeByte(1));
        ByteBuf held = reader.read(-1);
        ByteBuf second = writer.frameBuffer(16);
        assertThat(second).isNotSameAs(held);
        held.release();
        second.release();
        // Only one spare is kept: the second release frees its frame.
        assertThat(writer.frameBuffer(16)).isSameAs(held);
        assertThat(writer.frameBuffer(16)).isNotSameAs(held).isNotSameAs(second);
    }

    @Test
    void aFrameThatGrewLargeIsLeftToTheCollector() throws Exception {
        ByteBuf big = writer.frameBuffer(16);
        big.writeZero(RecyclableFrame.MAX_RECYCLED + 1);
        writer.write(big);
        reader.read(-1).release();
        assertThat(writer.frameBuffer(16)).isNotSameAs(big);
        assertThatThrownBy(big::readByte).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void framesReleasedAfterTheReaderClosedAreNotKept() throws Exception {
        ByteBuf first = writer.frameBuffer(16);
        writer.write(first.writeByte(1));
        ByteBuf held = reader.read(-1);
        reader.close();
        held.release();
        assertThat(writer.frameBuffer(16)).isNotSameAs(held);
    }

    @Test
    void framesQueuedWhenTheReaderClosesAreReleased() throws Exception {
        ByteBuf queued = writer.frameBuffer(16);
        writer.write(queued.writeByte(1));
        reader.close();
        assertThat(queued.refCnt()).isZero();
    }

    /**
     * A connection whose reader waits for more than a tick of the orphan watch (half the orphan
     * timeout) keeps no spare frame in either direction: an idle session does not hold two buffers.
     */
    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aReaderParkedForAWhileLetsGoOfTheSpareFramesOfBothDirections() throws Exception {
        ShmConnection[] pair = ShmConnection.pair(ByteBufAllocator.DEFAULT, new ShmSettings(1 << 20, TimeUnit.MILLISECONDS.toNanos(40)));
        ShmConnection requester = pair[0];
        ShmConnection accepter = pair[1];
        ByteBuf there = requester.frameBuffer(16);
        requester.write(there.writeByte(1));
        accepter.read(-1).release();
        ByteBuf back = accepter.frameBuffer(16);
        accepter.write(back.writeByte(2));
        requester.read(-1).release();
        assertThat(requester.hasSpare()).isTrue();
        assertThat(accepter.hasSpare()).isTrue();

        // The requester waits; the watch looks every 20 ms and drops the spares at its second look.
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                ByteBuf frame = requester.read(TimeUnit.SECONDS.toNanos(15));
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
        ByteBuf next = accepter.frameBuffer(16);
        assertThat(next).isNotSameAs(back);
        accepter.write(next.writeByte(3));
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(3);
        // Busy again: the frame just released is kept for the next write.
        assertThat(accepter.hasSpare()).isTrue();
    }

    @Test
    void aReleasedFrameCannotBeUsedUntilHandedOutAgain() throws Exception {
        ByteBuf frame = writer.frameBuffer(16);
        writer.write(frame.writeByte(1));
        ByteBuf received = reader.read(-1);
        received.release();
        assertThatThrownBy(received::readByte).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(received::release).isInstanceOf(IllegalReferenceCountException.class);
    }
}
