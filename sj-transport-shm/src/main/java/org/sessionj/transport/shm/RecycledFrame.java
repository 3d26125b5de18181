package org.sessionj.transport.shm;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * A frame of an in-JVM connection that goes back to the {@link Pipe} it travelled through when the
 * reader releases it, so that the writer's next frame reuses it: a session in steady state allocates
 * nothing per message (Aeron's and Netty's pools do the same; a general allocator costs more here,
 * since the frame is allocated on one thread and freed on another, and its leak detector samples
 * a stack trace for one allocation in 128).
 *
 * <p>Heap memory: the bytes never leave the JVM. A frame that grew past {@link #MAX_RECYCLED} is left
 * to the garbage collector instead, so a single large message does not pin its memory to the pipe.
 */
final class RecycledFrame extends UnpooledHeapByteBuf {
    /** Frames at most this large go back to their pipe. */
    static final int MAX_RECYCLED = 64 * 1024;

    private final Pipe home;

    RecycledFrame(Pipe home, int initialCapacity) {
        super(UnpooledByteBufAllocator.DEFAULT, initialCapacity, Integer.MAX_VALUE);
        this.home = home;
    }

    /** Makes a frame taken back from the pipe new again: one reference, empty. */
    RecycledFrame reuse() {
        resetRefCnt();
        clear();
        return this;
    }

    @Override
    protected void deallocate() {
        // The last reference was released (by the reader, or by a close draining the pipe): keep the
        // array for the writer's next frame unless it grew large.
        if (capacity() > MAX_RECYCLED || !home.giveBack(this)) {
            super.deallocate();
        }
    }
}
