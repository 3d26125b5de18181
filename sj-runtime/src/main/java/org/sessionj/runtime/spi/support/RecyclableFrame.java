package org.sessionj.runtime.spi.support;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * A building block for transports: a heap frame that goes back to the connection it was written on
 * (its {@link Home}) when its last reference is released, so that the writer's next frame reuses it
 * and a session in steady state allocates nothing per message (Aeron's and Netty's pools do the same).
 *
 * <p>Why not a pooled buffer: the frame is allocated on the session's thread and freed on another (the
 * reader's, or the event loop's once it has copied the frame into a batch). With a virtual thread per
 * session, each first pooled allocation sets up that thread's pool cache (a thread-local map, a cache
 * object, an arena pick under a lock), the caches of ended threads hold pool memory until collected,
 * and the leak detector samples a stack trace for one allocation in 128. One spare frame per direction
 * costs none of that.
 *
 * <p>A frame that grew past {@link #MAX_RECYCLED} is left to the garbage collector instead, so a single
 * large message does not pin its memory to the connection.
 */
public final class RecyclableFrame extends UnpooledHeapByteBuf {
    /** Frames at most this large go back to their home. */
    public static final int MAX_RECYCLED = 64 * 1024;

    /** Where released frames go back to: one direction of a connection, keeping at most one spare. */
    public interface Home {
        /**
         * Keeps {@code released} for the writer's next frame; false when a spare is kept already or the
         * connection is closed, in which case the frame is freed.
         *
         * @param released a frame of this home whose last reference was just released
         * @return whether the home kept it
         */
        boolean giveBack(RecyclableFrame released);
    }

    private final Home home;

    /**
     * A new frame of {@code home}.
     *
     * @param home where the frame goes back when released
     * @param initialCapacity its first capacity in bytes; it grows as written, without bound
     */
    public RecyclableFrame(Home home, int initialCapacity) {
        super(UnpooledByteBufAllocator.DEFAULT, initialCapacity, Integer.MAX_VALUE);
        this.home = home;
    }

    /**
     * Makes a frame taken back from its home new again: one reference, empty.
     *
     * @return this frame
     */
    public RecyclableFrame reuse() {
        resetRefCnt();
        clear();
        return this;
    }

    @Override
    protected void deallocate() {
        // The last reference was released (by the reader or the event loop, or by a close draining the
        // queue): keep the array for the writer's next frame unless it grew large.
        if (capacity() > MAX_RECYCLED || !home.giveBack(this)) {
            super.deallocate();
        }
    }
}
