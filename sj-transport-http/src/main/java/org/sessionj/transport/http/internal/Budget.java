package org.sessionj.transport.http.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A byte budget shared by many streams (the relay's memory bound, the direct servers' {@link StreamMemory}): taken on
 * append, given back on release.
 */
public final class Budget {
    private final long limit;
    private final AtomicLong used = new AtomicLong();
    /** Run (with no stream's lock held) when the budget is found spent, to make room; null: nothing is done. */
    private final Runnable whenSpent;

    /** A budget of {@code limit} bytes. */
    public Budget(long limit) {
        this(limit, null);
    }

    /** A budget of {@code limit} bytes that runs {@code whenSpent} when it is found spent (see {@link #spent}). */
    Budget(long limit, Runnable whenSpent) {
        this.limit = limit;
        this.whenSpent = whenSpent;
    }

    /**
     * The budget was found spent (an append refused, or a local writer's frame forced past it): makes room if it can;
     * true if it tried (the caller may try once more). Never with a stream's lock held.
     */
    boolean spent() {
        if (whenSpent == null) {
            return false;
        }
        whenSpent.run();
        return true;
    }

    /** An unlimited budget (a server's own connections are bounded per stream already). */
    public static Budget unlimited() {
        return new Budget(Long.MAX_VALUE);
    }

    /** Takes {@code bytes} if they fit. */
    boolean tryTake(long bytes) {
        while (true) {
            long now = used.get();
            if (now + bytes > limit && now > 0) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Takes {@code bytes} whether or not they fit (a local writer bounds itself); true if the budget is past its limit now. */
    boolean force(long bytes) {
        return used.addAndGet(bytes) > limit;
    }

    /** Gives back {@code bytes}. */
    void give(long bytes) {
        used.addAndGet(-bytes);
    }

    /** The bytes taken now. */
    public long used() {
        return used.get();
    }

    /** The limit. */
    public long limit() {
        return limit;
    }
}
