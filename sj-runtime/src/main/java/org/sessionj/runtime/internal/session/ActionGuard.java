package org.sessionj.runtime.internal.session;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.sessionj.api.SJException;

/**
 * Misuse detection for one session socket: which thread is inside an action of it. A socket is used
 * by one thread at a time (the checker forbids anything else; unchecked code can still do it): a
 * second thread that starts an action while another is inside one (blocked in a receive, say) gets a
 * clear {@link SJException} instead of corrupting the session.
 *
 * <p>Acquire/release accesses only, plain moves on x86, so an action pays a nanosecond or two
 * ({@code ActionGuardBenchmark}); the price is that two threads entering in the very same instant may
 * both pass, to be caught at a later action. A compare-and-set would be exact and cost three times as
 * much on every action of every session.
 *
 * <p>The socket's superclass rather than an object of its own: its one field then lives in the socket,
 * which saves each socket an object header and a reference (20 bytes; a million idle sessions have two
 * million sockets).
 */
abstract sealed class ActionGuard permits SessionLifecycle {
    private static final VarHandle INSIDE;

    static {
        try {
            INSIDE = MethodHandles.lookup().findVarHandle(ActionGuard.class, "inside", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The thread inside an action, or null. Accessed only through {@link #INSIDE}. */
    @SuppressWarnings("unused")
    private Thread inside;

    /**
     * Marks the calling thread as inside {@code action} of the session {@code protocol}. Nested calls
     * (an overload calling another) pass.
     *
     * @return whether this call entered (and must {@link #exitAction})
     * @throws SJException when another thread is inside an action of the same socket
     */
    final boolean enterAction(String action, String protocol) {
        Thread current = Thread.currentThread();
        Thread other = (Thread) INSIDE.getAcquire(this);
        if (other == null) {
            INSIDE.setRelease(this, current);
            return true;
        }
        if (other == current) {
            return false;
        }
        throw concurrentUse(current, other, action, protocol);
    }

    private static SJException concurrentUse(Thread current, Thread other, String action, String protocol) {
        return new SJException("concurrent use of a session socket: thread \"" + current.getName() + "\" called "
                + action + "() on the session " + protocol + " while thread \"" + other.getName()
                + "\" was inside another action of it; a session socket is used by one thread at a time"
                + " (hand it over between threads, never share it)");
    }

    /** Ends the action {@link #enterAction} entered (nothing if it was a nested call). */
    final void exitAction(boolean entered) {
        if (entered) {
            INSIDE.setRelease(this, null);
        }
    }
}
