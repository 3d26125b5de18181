package org.sessionj.api;

import java.time.Duration;

/**
 * A session thread: a virtual thread started by {@link SJ#spawn(SJSocket, Body)} that owns the
 * sessions it was given. The spawning code may not touch them again (sj-processor reports any use,
 * SJ050); the body must complete them (it is checked against their remaining types, SJ051). When the
 * body ends the thread closes its sessions: a complete one ends normally, an incomplete one (the body
 * threw) is failed, so its peer learns of it.
 */
public interface SJThread {

    /**
     * Waits until the body has ended. If it threw, the failure is raised here, wrapped in an
     * {@link SJException} whose cause is what the body threw.
     *
     * @throws SJIOException when the waiting thread is interrupted (its interrupt flag is set again)
     */
    void join();

    /**
     * Like {@link #join()}, waiting at most {@code timeout}; returns whether the body has ended.
     *
     * @throws SJIOException when the waiting thread is interrupted (its interrupt flag is set again)
     */
    boolean join(Duration timeout);

    /** Whether the body is still running. */
    boolean isAlive();

    /** The body of a session thread that owns one session. */
    @FunctionalInterface
    interface Body {
        /** Runs the session {@code s} to its end. */
        void run(SJSocket s) throws Exception;
    }

    /** The body of a session thread that owns two sessions. */
    @FunctionalInterface
    interface Body2 {
        /** Runs the sessions {@code a} and {@code b} to their ends. */
        void run(SJSocket a, SJSocket b) throws Exception;
    }

    /** What a runtime starts: the body with its sessions already bound. */
    @FunctionalInterface
    interface Task {
        /** Runs the body. */
        void run() throws Exception;
    }
}
