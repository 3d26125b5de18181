package org.sessionj.transport.netty.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.sessionj.runtime.spi.support.HeapFrame;

/**
 * One direction of a blocking TCP connection's frames as the session layer sees them
 * ({@link BlockingConnection} is a {@link org.sessionj.runtime.spi.FrameConnection}): SJ's own heap frames,
 * the one released last coming back for the next, so a session in steady state allocates no frame per
 * message. Against {@link SpareFrame}'s Netty buffers this saves, per frame, the view the session layer
 * wraps a buffer in, the buffer's reference count (an atomic instruction at each release) and the atomic
 * instruction of giving it back.
 *
 * <p>Taking is an atomic exchange (any thread may take: a control message is written by whichever thread
 * fails the session); giving back is a release store into an empty slot, no atomic instruction: two
 * givers at once may both find it empty, and then one frame is kept and the other left to the collector.
 * A frame is in the slot at most once, because it is released once, and it leaves it through the exchange
 * to one taker only.
 */
final class SpareHeapFrame implements HeapFrame.Home {
    private static final VarHandle SPARE;

    static {
        try {
            SPARE = MethodHandles.lookup().findVarHandle(SpareHeapFrame.class, "spare", HeapFrame.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through SPARE
    private HeapFrame spare;

    /** The frame released last, emptied, or a new one of at least {@code capacity} bytes; it grows as written. */
    HeapFrame take(int capacity) {
        HeapFrame frame = (HeapFrame) SPARE.getAcquire(this);
        if (frame != null) {
            frame = (HeapFrame) SPARE.getAndSet(this, (HeapFrame) null);
        }
        return frame != null ? frame.reuse() : new HeapFrame(this, Math.max(capacity, 64));
    }

    @Override
    public boolean giveBack(HeapFrame released) {
        if (SPARE.getAcquire(this) != null) {
            return false;
        }
        SPARE.setRelease(this, released);
        return true;
    }
}
