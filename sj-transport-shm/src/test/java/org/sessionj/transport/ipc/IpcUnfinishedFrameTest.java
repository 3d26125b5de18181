package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * A peer on the same host writes a fragmented frame's first fragment with a length it chooses (up to
 * {@code sessionj.ipc.maxFrame}) and then nothing: the reader's buffer holds what arrived, never the length
 * claimed (before, the first fragment made it allocate the whole frame, 64 MiB of direct memory per
 * connection, until {@code OutOfMemoryError}), and what all readers hold is charged to one budget
 * ({@code sessionj.ipc.unfinishedFrameBytes}) that fails a connection with a reason, never an Error.
 */
class IpcUnfinishedFrameTest {
    private static final int RING = 1 << 16;
    private static final int MAX_FRAME = 8 << 20;
    private static final int FRAGMENT = 4096;

    /** An allocator that remembers the largest buffer asked for. */
    private static final class Recording extends AbstractByteBufAllocator {
        int largest;

        Recording() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            largest = Math.max(largest, initialCapacity);
            return UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    private final SharedRing ring = new SharedRing(ByteBuffer.allocateDirect(RING + SharedRing.TRAILER), RING);
    private final Recording alloc = new Recording();

    private IpcFrameAssembly reader(UnfinishedFrames budget, AtomicInteger wakes) {
        return new IpcFrameAssembly(ring, alloc, MAX_FRAME, budget, wakes::incrementAndGet, "ipc test");
    }

    /** A first fragment at 0 claiming {@code total} bytes and carrying {@code FRAGMENT - 4} of them. */
    private void first(IpcFrameAssembly frames, int total) {
        ring.bytes().clear().putInt(0, total);
        frames.record(Records.FIRST, 0, FRAGMENT);
    }

    @Test
    void aFirstFragmentClaimingALargeFrameCostsItsBytesNotTheClaim() throws Exception {
        UnfinishedFrames budget = UnfinishedFrames.ipc(64L << 20);
        IpcFrameAssembly frames = reader(budget, new AtomicInteger());
        first(frames, MAX_FRAME);
        assertThat(alloc.largest).isLessThanOrEqualTo(FRAGMENT); // was MAX_FRAME, whatever followed
        assertThat(frames.partialCapacity()).isLessThanOrEqualTo(FRAGMENT);
        assertThat(budget.used()).isEqualTo(frames.partialCapacity());
        for (int i = 0; i < 10; i++) {
            frames.record(Records.MIDDLE, 0, FRAGMENT);
        }
        assertThat(frames.partialCapacity()).isBetween(11 * FRAGMENT - 4, 2 * 11 * FRAGMENT); // grows as bytes come
        assertThat(budget.used()).isEqualTo(frames.partialCapacity());
        frames.release();
        assertThat(budget.used()).isZero();
    }

    @Test
    void anHonestFragmentedFrameIsWholeAndReleasesItsCharge() throws Exception {
        UnfinishedFrames budget = UnfinishedFrames.ipc(1 << 20);
        IpcFrameAssembly frames = reader(budget, new AtomicInteger());
        int total = 3 * FRAGMENT - 4;
        first(frames, total);
        frames.record(Records.MIDDLE, 0, FRAGMENT);
        frames.record(Records.LAST, 0, FRAGMENT);
        assertThat(frames.hasFrame()).isTrue();
        ByteBuf frame = frames.take();
        assertThat(frame.readableBytes()).isEqualTo(total);
        frame.release();
        assertThat(budget.used()).isZero();
    }

    @Test
    void aNewerFrameGivesUpTheOldestAndOneWithNothingOlderFailsItself() throws Exception {
        UnfinishedFrames budget = UnfinishedFrames.ipc(256 << 10);
        AtomicInteger oldWakes = new AtomicInteger();
        IpcFrameAssembly old = reader(budget, oldWakes);
        IpcFrameAssembly newer = reader(budget, new AtomicInteger());
        first(old, MAX_FRAME);
        for (int i = 0; i < 30; i++) {
            old.record(Records.MIDDLE, 0, FRAGMENT); // ~124 KiB held
        }
        first(newer, MAX_FRAME);
        for (int i = 0; i < 40 && !newer.isFailedForTest(); i++) {
            newer.record(Records.MIDDLE, 0, FRAGMENT);
        }
        assertThat(oldWakes.get()).isEqualTo(1); // its reader is woken to see it
        assertThatThrownBy(old::failIfOver).isInstanceOf(IOException.class)
                .hasMessageStartingWith("unfinished ipc frame from the peer given up: it held ")
                .hasMessageContaining("(sessionj.ipc.unfinishedFrameBytes) (ipc test)");
        assertThat(old.partialCapacity()).isZero();
        newer.failIfOver(); // served
        for (int i = 0; i < 100 && !newer.isFailedForTest(); i++) {
            newer.record(Records.MIDDLE, 0, FRAGMENT);
        }
        assertThatThrownBy(newer::failIfOver).isInstanceOf(IOException.class)
                .hasMessageStartingWith("unfinished ipc frame from the peer refused: its buffer of ")
                .hasMessageContaining("past its budget of 262144 (sessionj.ipc.unfinishedFrameBytes; 0 held now");
        assertThat(budget.used()).isZero();
    }

    @Test
    void theBudgetFollowsTheSettingsAndHoldsOneLargestFrame() {
        var p = new java.util.Properties();
        assertThat(UnfinishedFrames.ipcFromSettings(org.sessionj.runtime.spi.support.SystemSettings.of(p)).budgetBytes())
                .isGreaterThanOrEqualTo(64 << 20);
        p.setProperty("sessionj.ipc.unfinishedFrameBytes", "1000000");
        assertThat(UnfinishedFrames.ipcFromSettings(org.sessionj.runtime.spi.support.SystemSettings.of(p)).budgetBytes())
                .isEqualTo(1_000_000);
        p.setProperty("sessionj.ipc.unfinishedFrameBytes", "0");
        assertThatThrownBy(() -> UnfinishedFrames.ipcFromSettings(org.sessionj.runtime.spi.support.SystemSettings.of(p)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionj.ipc.unfinishedFrameBytes");
    }
}
