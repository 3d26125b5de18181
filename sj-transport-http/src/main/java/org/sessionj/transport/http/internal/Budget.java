package org.sessionj.transport.http.internal;

import java.util.concurrent.atomic.AtomicLong;

/** A byte budget shared by many streams (the relay's memory bound): taken on append, given back on release. */
public final class Budget {
    private final long limit;
    private final AtomicLong used = new AtomicLong();

    /** A budget of {@code limit} bytes. */
    public Budget(long limit) {
        this.limit = limit;
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

    /** Takes {@code bytes} whether or not they fit (a local writer bounds itself). */
    void force(long bytes) {
        used.addAndGet(bytes);
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
