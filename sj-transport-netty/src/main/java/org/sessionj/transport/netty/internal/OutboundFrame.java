package org.sessionj.transport.netty.internal;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * A frame a session writes on a {@link NettyConnection}: heap memory that goes back to its connection
 * when the event loop has copied it into a batch and released it, so that the connection's next
 * frame reuses it. Before, every frame was a pooled direct buffer allocated on the session's thread:
 * with a virtual thread per session (the common server and client loop), each first allocation set
 * up that thread's pool cache (Netty's {@code PoolThreadLocalCache}: a thread-local map, a cache
 * object, an arena pick under a lock), and the caches of ended threads held pool memory until
 * collected, so the pool kept allocating new native chunks: 5–10 % of each JVM's CPU in the
 * accept-load test (docs/reliability.md). Small frames are copied into the event loop's own (pooled)
 * batch buffer anyway; a large one is copied to direct memory by Netty on its way out.
 *
 * <p>A frame that grew past {@link #MAX_RECYCLED} is left to the garbage collector instead, so one
 * large message does not pin its memory to the connection.
 */
final class OutboundFrame extends UnpooledHeapByteBuf {
    /** Frames at most this large go back to their connection. */
    static final int MAX_RECYCLED = 64 * 1024;

    private final NettyConnection home;

    OutboundFrame(NettyConnection home, int initialCapacity) {
        super(UnpooledByteBufAllocator.DEFAULT, initialCapacity, Integer.MAX_VALUE);
        this.home = home;
    }

    /** Makes a frame taken back from the connection new again: one reference, empty. */
    OutboundFrame reuse() {
        resetRefCnt();
        clear();
        return this;
    }

    @Override
    protected void deallocate() {
        // The last reference was released (by the event loop once copied, or by a close draining the
        // queue): keep the array for the connection's next frame unless it grew large.
        if (capacity() > MAX_RECYCLED || !home.giveBack(this)) {
            super.deallocate();
        }
    }
}
