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
 * <p>It also keeps the thread that entered an action last, its owner (adv18 A13): a transport's timer
 * asks, while no action is under way, whether that thread has ended with the session open
 * ({@link SessionLifecycle#idleOwner}). A plain store next to the release store of an action's entry: it
 * is read only by that timer, which needs to see it eventually (a look is a heartbeat interval apart).
 *
 * <p>The socket's superclass rather than an object of its own: its fields then live in the socket,
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
    /** The thread that entered an action last (plain: read by a transport's timer only), or null after a hand-over. */
    private Thread owner;

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
            owner = current;
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

    /**
     * The thread that acted on this session last, if no action is under way now; null while one is, or
     * when no thread has acted since the session was made or handed over. Any thread.
     */
    final Thread idleThread() {
        return INSIDE.getAcquire(this) == null ? owner : null;
    }

    /** The session moves to another thread, which has not acted yet ({@link #idleThread} is null until it does). */
    final void forgetOwner() {
        owner = null;
    }

    /** The calling thread owns the session before its first action (it made the session, or took it from accept()). */
    final void claimOwner() {
        owner = Thread.currentThread();
    }

    /** The thread that entered an action last, action under way or not (by the thread inside, {@link #enterIfIdle}). */
    final Thread lastThread() {
        return owner;
    }

    /**
     * Enters for a thread other than the owner (a transport's watcher failing an orphaned session) only
     * when no action is under way, exactly (a compare-and-set: this is not a per-action path).
     *
     * @return whether it entered (and must {@link #exitAction})
     */
    final boolean enterIfIdle() {
        return INSIDE.compareAndSet(this, null, Thread.currentThread());
    }

    /** Ends the action {@link #enterAction} entered (nothing if it was a nested call). */
    final void exitAction(boolean entered) {
        if (entered) {
            INSIDE.setRelease(this, null);
        }
    }
}
