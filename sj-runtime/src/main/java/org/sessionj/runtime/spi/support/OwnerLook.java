package org.sessionj.runtime.spi.support;

import org.sessionj.runtime.spi.OwnerWatch;

/**
 * One look of a transport's timer at the thread of the session over its connection (adv18 A13), for the
 * timers that tick once per heartbeat interval: the tcp/tls heartbeat handler, the blocking-tcp keeper,
 * the ipc doorbell. The caller keeps what the previous look saw (one field of its own per connection), so
 * that a million sessions whose threads live cost no object each.
 */
public final class OwnerLook {
    private OwnerLook() {
    }

    /**
     * Looks at {@code watch}'s owner: when it has ended, and it is the thread that the previous look saw
     * ended too ({@code seenEnded}), the watch is told ({@link OwnerWatch#ownerEnded}).
     *
     * @param watch the session's watch, or null (no session on the connection yet: nothing to look at)
     * @param seenEnded what the previous look returned (null at the first)
     * @return the owner seen ended now, for the next look, or null
     */
    public static Thread look(OwnerWatch watch, Thread seenEnded) {
        if (watch == null) {
            return null;
        }
        Thread owner = watch.idleOwner();
        if (owner == null || owner.isAlive()) {
            return null;
        }
        if (owner == seenEnded) {
            watch.ownerEnded(owner);
            return null;
        }
        return owner;
    }
}
