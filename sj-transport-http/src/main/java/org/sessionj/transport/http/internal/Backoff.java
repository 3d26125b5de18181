package org.sessionj.transport.http.internal;

import java.util.concurrent.TimeUnit;

/**
 * Retrying a request that failed on the way (a dropped connection, a proxy's 502/504): waits that
 * double from 50 ms to 2 s, until the peer has been unreachable for the vanish time.
 */
final class Backoff {
    private final long giveUpNanos;
    private long firstFailure = -1;
    private long delayMillis = 50;

    Backoff(long giveUpMillis) {
        this.giveUpNanos = TimeUnit.MILLISECONDS.toNanos(giveUpMillis);
    }

    /** A request succeeded. */
    void reset() {
        firstFailure = -1;
        delayMillis = 50;
    }

    /** A request failed: the wait before the next try, or -1 to give up. */
    long nextDelayMillis() {
        long now = System.nanoTime();
        if (firstFailure < 0) {
            firstFailure = now;
        }
        if (now - firstFailure > giveUpNanos) {
            return -1;
        }
        long delay = delayMillis;
        delayMillis = Math.min(2_000, delayMillis * 2);
        return delay;
    }
}
