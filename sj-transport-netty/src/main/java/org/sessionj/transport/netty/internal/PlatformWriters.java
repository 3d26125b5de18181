package org.sessionj.transport.netty.internal;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * At most two platform threads that make, for a virtual thread, the socket writes of a blocking TCP
 * connection ({@link BlockingConnection}) whose reader is a platform thread.
 *
 * <p>Why: the first time a virtual thread writes a {@code SocketChannel}, or reads it without a timeout,
 * the JDK puts the socket in non-blocking mode for good (so that the virtual thread can park instead of
 * pinning its carrier), and no later {@code configureBlocking(true)} undoes it. From then on a platform
 * thread's blocking read that finds nothing there yet is three system calls ({@code read} failing with
 * {@code EAGAIN}, {@code poll}, {@code read}) instead of one blocking {@code read}: measured at ~1.1
 * system calls and 1.2–1.5 µs of CPU more per round trip (docs/benchmarks.md, "twelfth session"). Two
 * virtual threads write a connection whose session runs on a platform thread: the accepting side's
 * handshake (the runtime runs each on a virtual thread) and the keeper's heartbeats. Their writes are
 * handed here instead.
 *
 * <p>Bounded: when both threads are busy (a write blocked on a peer that does not read, say) a hand-off
 * is refused and the caller writes on its own thread as before, which costs only the mode. A thread
 * idle for 30 s ends.
 */
final class PlatformWriters {
    private static final ThreadPoolExecutor WRITERS = new ThreadPoolExecutor(0, 2, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), task -> {
                Thread thread = new Thread(task, "sj-tcp-writer");
                thread.setDaemon(true);
                return thread;
            });

    private PlatformWriters() {
    }

    /** Runs {@code write} on a platform writer if one is free or may be started; false if both are busy. */
    static boolean tryExecute(Runnable write) {
        try {
            WRITERS.execute(write);
            return true;
        } catch (RejectedExecutionException | OutOfMemoryError busy) {
            return false; // both busy, or no thread can be made: the caller writes itself
        }
    }
}
