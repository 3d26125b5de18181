package org.sessionj.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Waits, with a bound, until a test's other thread has reached the wait a test is about: a condition
 * on the thread itself (its state, its stack) instead of a sleep that only makes reaching it likely.
 */
public final class BlockedThreads {
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

    private BlockedThreads() {
    }

    /** Until {@code thread} is parked (waiting, with or without a timeout). */
    public static void awaitParked(Thread thread) {
        await(thread, "parked", t -> t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING);
    }

    /**
     * Until {@code thread} is inside a selector's select (a platform thread blocked in native code is
     * RUNNABLE, so only its stack says it sleeps) called from {@code caller}'s methods.
     */
    public static void awaitSelecting(Thread thread, Class<?> caller) {
        await(thread, "sleeping in a select from " + caller.getSimpleName(), t -> {
            StackTraceElement[] stack = t.getStackTrace();
            return Arrays.stream(stack).anyMatch(f -> f.getClassName().equals(caller.getName()))
                    && Arrays.stream(stack).anyMatch(f -> f.getMethodName().equals("doSelect"));
        });
    }

    private static void await(Thread thread, String what, Predicate<Thread> reached) {
        long deadline = System.nanoTime() + BOUND_NANOS;
        while (!reached.test(thread)) {
            assertThat(thread.isAlive()).as("%s ended before it was %s", thread.getName(), what).isTrue();
            assertThat(System.nanoTime() - deadline).as("%s is %s within 10 s", thread.getName(), what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
