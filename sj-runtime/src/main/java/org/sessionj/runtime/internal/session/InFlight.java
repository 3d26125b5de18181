package org.sessionj.runtime.internal.session;

/**
 * A session handshake of {@link Handshakes} in progress: when it started, its state, and how many bytes
 * its requester had sent at the last look for a stalled handshake.
 *
 * <p>The state moves once, by compare-and-set, from {@link #RUNNING} to {@link #OPENED} (its first
 * frame is in), {@link #DROPPED} or {@link #ENDED}, and from {@link #OPENED} to {@link #ENDED}: a
 * handshake is dropped at most once, and never after it ended, so each drop is counted back exactly
 * once (a drop and the end of the same handshake can race).
 */
final class InFlight {
    static final int RUNNING = 0;
    static final int OPENED = 1;
    static final int DROPPED = 2;
    static final int ENDED = 3;
    private static final java.util.concurrent.atomic.AtomicIntegerFieldUpdater<InFlight> STATE =
            java.util.concurrent.atomic.AtomicIntegerFieldUpdater.newUpdater(InFlight.class, "state");

    /** When its connection was accepted, or else when its handshake started (on the handshakes' clock). */
    final long started;
    /** When its handshake started, holding a slot (on the handshakes' clock). */
    final long slotted;
    private volatile int state;
    /** {@link org.sessionj.runtime.spi.Connection#receivedBytes} at the last look; -2 before the first. */
    volatile long lastBytes = -2;

    InFlight(long started, long slotted) {
        this.started = started;
        this.slotted = slotted;
    }

    /** Its first frame was read: it can no longer stall on its requester, nor be dropped. */
    void opened() {
        STATE.compareAndSet(this, RUNNING, OPENED);
    }

    /** Whether it may still be dropped (neither opened, dropped nor ended). */
    boolean droppable() {
        return state == RUNNING;
    }

    /** Claims it for a drop; false when it was opened, dropped or ended first. */
    boolean claimDrop() {
        return STATE.compareAndSet(this, RUNNING, DROPPED);
    }

    /** Ends it; false when it had been dropped (the drop is then this end's to count back). */
    boolean end() {
        int was;
        do {
            was = state;
            if (was == DROPPED) {
                return false;
            }
        } while (!STATE.compareAndSet(this, was, ENDED));
        return true;
    }
}
