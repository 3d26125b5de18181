package org.sessionj.transport.shm.session;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs the two (or more) sides of a session on their own threads and collects their outcomes. */
final class Peers {
    enum Threads { PLATFORM, VIRTUAL }

    private Peers() {
    }

    /** Starts {@code body} on a new thread of {@code kind}. */
    static <T> FutureTask<T> start(Threads kind, Callable<T> body) {
        FutureTask<T> task = new FutureTask<>(body);
        (kind == Threads.VIRTUAL ? Thread.ofVirtual() : Thread.ofPlatform().daemon()).start(task);
        return task;
    }

    /** The result of {@code task}, or its failure rethrown as is (unchecked) or wrapped. */
    static <T> T join(FutureTask<T> task) throws Exception {
        try {
            return task.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        } catch (TimeoutException e) {
            task.cancel(true);
            throw e;
        }
    }

    /** The failure of {@code task}, or null if it succeeded. */
    static Throwable failure(FutureTask<?> task) throws InterruptedException, TimeoutException {
        try {
            task.get(20, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
