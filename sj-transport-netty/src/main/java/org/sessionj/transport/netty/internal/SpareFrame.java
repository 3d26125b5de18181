package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.atomic.AtomicReference;
import org.sessionj.runtime.spi.support.RecyclableFrame;

/**
 * One direction of a blocking TCP connection's frames ({@link BlockingConnection}): the frame released
 * last comes back for the next one, so a session in steady state allocates no frame per message. Before,
 * each frame was a pooled Netty buffer (a thread cache look-up, an arena allocation and free, and a stack
 * trace for one allocation in 128 for the leak detector) on both sides, twice per round trip
 * ({@link RecyclableFrame} says why the event-loop path stopped doing that too). An event-loop connection
 * ({@link NettyConnection}) keeps one for the small frames its decoder copies out of the read buffers.
 */
final class SpareFrame implements RecyclableFrame.Home {
    private final AtomicReference<RecyclableFrame> spare = new AtomicReference<>();

    /** The frame released last, emptied, or a new one of at least {@code capacity} bytes; it grows as written. */
    ByteBuf take(int capacity) {
        RecyclableFrame frame = spare.getAndSet(null);
        return frame != null ? frame.reuse() : new RecyclableFrame(this, Math.max(capacity, 64));
    }

    @Override
    public boolean giveBack(RecyclableFrame released) {
        return spare.compareAndSet(null, released);
    }
}
