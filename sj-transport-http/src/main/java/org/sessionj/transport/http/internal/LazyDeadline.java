package org.sessionj.transport.http.internal;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A deadline on one event loop that is set and cleared far more often than it expires: one per HTTP
 * request (a client's answer timeout, a server's held poll). Setting it stores a time; a Netty timer
 * is scheduled only when none is armed to fire by then, and a timer that fires before the current
 * deadline (it was armed for an earlier request) re-arms itself for the rest instead of expiring.
 * A steady stream of requests answered in time then schedules one timer per timeout period instead
 * of scheduling and cancelling one per request (a task object, a lambda and two priority-queue
 * operations on the loop, per request and per side).
 *
 * <p>Event loop only (the loop given), except {@link #cancel}.
 */
final class LazyDeadline {
    private final EventExecutor loop;
    private final Runnable expired;
    private final Runnable check = this::check;
    /** When the deadline expires ({@link System#nanoTime}); meaningful while {@link #set}. */
    private long deadline;
    private boolean set;
    private ScheduledFuture<?> timer;
    /** When {@link #timer} fires. */
    private long timerAt;
    /** Timers scheduled so far (for tests: a steady stream of requests must not schedule one each). */
    private int scheduled;

    /** A deadline on {@code loop} that runs {@code expired} (on the loop) if it passes while set. */
    LazyDeadline(EventExecutor loop, Runnable expired) {
        this.loop = loop;
        this.expired = expired;
    }

    /** The loop this deadline lives on. */
    EventExecutor loop() {
        return loop;
    }

    /** Sets the deadline {@code timeoutNanos} from now (replacing any set before). */
    void set(long timeoutNanos) {
        long at = System.nanoTime() + timeoutNanos;
        deadline = at;
        set = true;
        if (timer != null && timerAt - at <= 0) {
            return; // the armed timer fires first and re-arms for the rest
        }
        if (timer != null) {
            timer.cancel(false); // armed for later than this deadline: too late
        }
        arm(at);
    }

    /** Clears the deadline (met): an armed timer stays, and finds nothing to expire. */
    void clear() {
        set = false;
    }

    /** Whether the deadline is set and has not expired. */
    boolean isSet() {
        return set;
    }

    /** Clears the deadline and cancels the timer (the owner is closing); from any thread. */
    void cancel() {
        if (!loop.inEventLoop()) {
            loop.execute(this::cancel);
            return;
        }
        set = false;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** Timers scheduled so far. */
    int timersScheduled() {
        return scheduled;
    }

    private void arm(long at) {
        timerAt = at;
        scheduled++;
        timer = loop.schedule(check, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void check() {
        timer = null;
        if (!set) {
            return;
        }
        if (deadline - System.nanoTime() > 0) {
            arm(deadline);
            return;
        }
        set = false;
        expired.run();
    }
}
