package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.Frames;
import java.io.IOException;
import java.util.ArrayDeque;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.internal.monitor.CodecPriming;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.wire.FailureNotice;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.runtime.spi.OwnerWatch;

/**
 * What an established session is between its actions: the connection it runs over (replaced when the
 * peer delegates its end), the state of its type, its input and output sides, and how it ends
 * (completed and closed, failed, or delegated). {@link SessionSocket} performs the actions of the API
 * on top of it.
 *
 * <p>Fields are package-private for {@link SessionSocket}'s actions only; every other class of the
 * package goes through the methods.
 */
abstract sealed class SessionLifecycle extends ActionGuard implements OwnerWatch permits SessionSocket {
    /** Replaced when the peer delegates its end (the new owner reconnects, docs/delegation.md). */
    Connection connection;
    /** The connection's in-JVM capability (references passed without a copy), or null. */
    LocalConnection local;
    final SessionSettings settings;
    final String protocol;
    State state;
    final SessionOutput output;
    final SessionInput input;
    boolean closed;
    /** Set when this end was delegated: the socket is dead here, the session lives on elsewhere. */
    boolean delegated;
    /** A selector's listener, kept so that it moves to the new connection when the peer delegates. */
    private volatile Runnable readinessListener;
    volatile String failure;
    private volatile SessionScope scope;
    /**
     * How long a send waits for the peer to take what was sent before ({@code sessionj.sendTimeout}), or
     * -1: as long as the connection lives. A selector shortens it ({@link #boundSends}); kept here so that
     * it moves to the new connection when the peer delegates.
     */
    private long sendTimeoutNanos;

    SessionLifecycle(Connection connection, State start, SessionSettings settings, String protocol, Frame prefix,
            ArrayDeque<Object> references) {
        this.connection = connection;
        this.local = connection.capability(LocalConnection.class);
        if (local == null) {
            // Before the session's first message, not inside the program's first steps (issue 15).
            CodecPriming.prime(start, connection.alloc());
        }
        this.settings = settings;
        this.sendTimeoutNanos = settings.sendTimeoutNanos();
        if (sendTimeoutNanos >= 0) {
            connection.sendTimeout(sendTimeoutNanos);
        }
        this.protocol = protocol;
        this.state = start;
        this.output = new SessionOutput((SessionSocket) this);
        this.input = new SessionInput((SessionSocket) this, prefix, references);
        claimOwner();
        connection.ownerWatch(this);
    }

    // ---- state -------------------------------------------------------------------------------

    /** The state for the next action; fails if the session cannot go on (failed, closed, delegated). */
    final State usableState() {
        if (delegated || failure != null || closed) {
            throw failedOrClosed();
        }
        return state;
    }

    private SJIOException failedOrClosed() {
        if (delegated) {
            return new SJIOException("the session was delegated to another owner; this socket can no longer be used");
        }
        String reason = failure;
        if (reason != null) {
            releaseBuffers();
            return new SJIOException("the session has failed: " + reason);
        }
        return new SJIOException("the session is closed");
    }

    /** The action is done: the session moves to {@code next}, and the batch goes out if it must. */
    final void advance(State next) {
        state = next;
        input.releaseIfDrained();
        output.advanced(next, settings.batchBytes());
    }

    /*
     * The primitive sends and receives, and the loop and branch actions, end in one of the three methods
     * below rather than in advance(): each kind of action keeps only its own work, and the compiler's
     * profile of each is that kind's alone. A profile shared by all (advance's) made every receive inline
     * the send's flush down to the queue's enqueue, and every send the receive's frame release, so the hot
     * actions compiled to 3-4.6 KB of code, past the size up to which C2 inlines a method compiled already
     * (InlineSmallCode, 2.5 KB): they stayed calls in the program's loop, and a virtual thread waiting in
     * a receive froze and thawed their frames at every yield (docs/benchmarks.md, "Sixteenth session").
     */

    /**
     * A send of a primitive is done: the session moves to {@code next}, and the batch goes out if it must.
     * Nothing to release on the input side: only a receive drains a frame, and it releases the frame
     * itself ({@link #advanceAfterInput}).
     */
    final void advanceAfterSend(State next) {
        state = next;
        output.sent(next, settings.batchBytes());
    }

    /** As {@link #advanceAfterSend}, after a selection or a loop condition. */
    final void advanceAfterSelect(State next) {
        state = next;
        output.selected(next, settings.batchBytes());
    }

    /**
     * An input action (receive, branch, loop flag) is done: the session moves to {@code next} and a
     * drained frame goes back to the writer. Output is pending here only when the item came out of a
     * frame already read, after sends batched since (the receive then did not flush): rare, and apart.
     */
    final void advanceAfterInput(State next) {
        state = next;
        input.releaseIfDrained();
        if (output.isPending()) {
            output.advanced(next, settings.batchBytes());
        }
    }

    /** The listener told when input may be ready (a selector's or a join's), or null. */
    Runnable readinessListener() {
        return readinessListener;
    }

    /** Sets the selector's readiness listener on this session's connection, now and after a delegation. */
    void readinessListener(Runnable listener) {
        readinessListener = listener;
        connection.readinessListener(listener);
    }

    /**
     * Bounds this session's sends to {@code timeoutNanos} (negative: no bound) unless they are bounded
     * tighter already: a selector's sessions are served by one thread, whose wait for one peer that takes
     * nothing is every session's wait (hostile18 H13). By the owner thread; a plain read when the bound
     * is already set, so a selector that takes its sessions back at each step pays one comparison.
     */
    void boundSends(long timeoutNanos) {
        if (timeoutNanos < 0 || (sendTimeoutNanos >= 0 && sendTimeoutNanos <= timeoutNanos)) {
            return;
        }
        sendTimeoutNanos = timeoutNanos;
        connection.sendTimeout(timeoutNanos);
    }

    /** How long this session's sends wait for room (-1: as long as the connection lives). */
    long sendTimeoutNanos() {
        return sendTimeoutNanos;
    }

    /** Joins the session to {@code scope}: a failure of this session fails the rest of the scope. */
    void scope(SessionScope scope) {
        this.scope = scope;
    }

    // ---- delegation --------------------------------------------------------------------------

    /** Delegator: the state the session is delegated at (it must be usable). */
    State stateForDelegation() {
        return usableState();
    }

    /** Delegator: sends pending output and takes the socket off the thread's pending list; the connection. */
    Connection flushForDelegation() {
        if (output.isPending()) {
            output.flush();
        }
        output.leaveThread();
        return connection;
    }

    /** Delegator: the input received but not consumed (null if none); the socket no longer holds it. */
    Frame takeUnreadInput() {
        return input.takeUnread();
    }

    /** Delegator: references carried over from an earlier delegation and not yet consumed (null if none). */
    ArrayDeque<Object> takePrefixReferences() {
        return input.takeCarried();
    }

    /** Delegator: the delegation cannot go on; the peer is told and the session fails here. */
    SJIOException failDelegation(String reason, Throwable cause) {
        return fail("delegation failed: " + reason, true, cause);
    }

    /** Delegator: the new owner could not be given the session; the waiting peer is told so. */
    void abandonDelegation(String reason) {
        fail("the delegation to a new owner failed: " + reason, true, null);
    }

    /** Delegator: the session is in the new owner's hands; tell the peer and let go of the connection. */
    void completeDelegation() {
        try {
            Frame handedOver = Frames.allocate(connection, 1).writeByte(Tags.HANDED_OVER);
            Frames.write(connection, handedOver);
            connection.flush();
        } catch (IOException e) {
            // The peer has gone; the new owner's reconnection will find that out.
        }
        delegated = true;
        closed = true;
        releaseBuffers();
        connection.close();
    }

    /** The per-session settings. */
    SessionSettings settings() {
        return settings;
    }

    /** The connection's in-JVM capability (passing references), or null. */
    LocalConnection local() {
        return local;
    }

    /** The output side (the delegator writes the SESSION item into it). */
    SessionOutput output() {
        return output;
    }

    /** Why the session failed, or null. */
    String failure() {
        return failure;
    }

    /** Passive peer: the other end is being delegated; waits for its new owner (a failure fails the session). */
    Connection awaitNewOwner(Frame notice) {
        try {
            return Delegation.follow(notice, connection, settings.context());
        } catch (SJTimeoutException e) {
            fail(e.getMessage(), true, e);
            throw e;
        } catch (IOException | MalformedInputException e) {
            throw fail("the peer delegated the session, but the hand-over failed: " + e.getMessage(), true, e);
        }
    }

    /** Passive peer: the session goes on over the new owner's connection; the old one closes. */
    void switchConnection(Connection fresh) {
        Connection old = connection;
        connection = fresh;
        if (sendTimeoutNanos >= 0) {
            fresh.sendTimeout(sendTimeoutNanos);
        }
        local = fresh.capability(LocalConnection.class);
        fresh.ownerWatch(this);
        old.close();
        Runnable listener = readinessListener;
        if (listener != null) {
            fresh.readinessListener(listener);
        }
    }

    // ---- failure and close -------------------------------------------------------------------

    /** The program tried {@code found} where the type expects {@code expected}: the program's error, the session goes on. */
    static SJProtocolViolationException violation(State expected, String found) {
        return new SJProtocolViolationException("protocol violation: the session type expects " + expected.describe()
                + " but the program tried " + found);
    }

    /** The peer sent {@code tag} where the type expects {@code expected}: fails the session. */
    final SJIOException unexpected(State expected, byte tag) {
        return fail("the peer sent " + Tags.describe(tag) + " where this side expected " + expected.describe(), true,
                null);
    }

    /**
     * Fails the session (owner thread): records the reason, tells the peer if asked, closes the
     * connection and fails the rest of its scope. Returns the exception to throw.
     */
    final SJIOException fail(String reason, boolean notifyPeer, Throwable cause) {
        return fail(reason, notifyPeer ? reason : null, cause);
    }

    /**
     * Fails the session as {@link #fail(String, boolean, Throwable)} does, telling the peer {@code toPeer}
     * (null: nothing) rather than the reason: what this side found may be more than the peer should learn
     * (a delegated session's reconnection, hostile17 H8).
     */
    final SJIOException fail(String reason, String toPeer, Throwable cause) {
        if (failure == null) {
            failure = reason;
            releaseBuffers();
            if (toPeer != null) {
                FailureNotice.write(connection, toPeer);
            }
            // Nothing more is owed to a failed peer: the notice goes out if the peer takes it, and this thread
            // does not wait for a peer that takes nothing (close() would, up to the transport's 10 s linger).
            connection.closeFailed();
            SessionScope sc = scope;
            if (sc != null) {
                sc.memberFailed((SessionSocket) this, reason);
            }
        }
        return cause == null ? new SJIOException(reason) : new SJIOException(reason, cause);
    }

    /**
     * Fails the session from any thread (its scope failed): the connection is closed, which the peer
     * sees on its next read, and a blocked input of this session wakes up with {@code reason}.
     */
    void failFromElsewhere(String reason) {
        if (failure == null && !closed) {
            failure = reason;
            connection.closeFailed();
        }
    }

    // ---- a thread that ended with the session open (adv18 A13) ---------------------------------------

    /**
     * The watch's view for the connection's timer: null once the session ended here (failed, closed, delegated)
     * or its type is complete (everything was flushed on entering the end: the peer waits for nothing).
     */
    @Override
    public final Thread idleOwner() {
        if (closed || delegated || failure != null || state.kind() == State.Kind.END) {
            return null;
        }
        return idleThread();
    }

    /** Fails the session on a thread of its own ({@link OrphanedSession}): the caller is a transport's timer. */
    @Override
    public final void ownerEnded(Thread owner) {
        Thread failing = new Thread(new OrphanedSession(this, owner), "sj-orphaned-session");
        failing.setDaemon(true);
        failing.start();
    }

    /**
     * {@code owner}, the thread that acted on this session last, ended with it open: fails the session and tells
     * the peer, unless another thread has taken the session meanwhile (it acts, or is inside an action). The
     * batch the thread left unsent is dropped, as a close of an incomplete session drops it. The failure is
     * recorded inside the guard, and the notice and the close come after it: a thread that takes the session
     * meanwhile learns that it failed and why, not that it is in use.
     */
    final void failOrphaned(Thread owner) {
        if (!enterIfIdle()) {
            return;
        }
        String next;
        String reason;
        try {
            if (lastThread() != owner || owner.isAlive() || closed || delegated || failure != null
                    || state.kind() == State.Kind.END) {
                return;
            }
            next = state.describe();
            reason = "the thread \"" + owner.getName() + "\" that acted on this session last ended with the"
                    + " session open; its next action was " + next + " (the session failed and the peer was told)";
            output.leaveThread();
            releaseBuffers();
            failure = reason;
        } finally {
            exitAction(true);
        }
        FailureNotice.write(connection, "the peer's thread that owned the session ended without completing or"
                + " closing it; the peer's next action was " + next);
        connection.closeFailed(); // as every failure: nothing more is owed to the peer, nobody waits for it
        SessionScope sc = scope;
        if (sc != null) {
            sc.memberFailed((SessionSocket) this, reason);
        }
        if (settings.context() != null) {
            settings.context().events().abandoned(reason);
        }
    }

    private void releaseBuffers() {
        output.discard();
        input.discard();
    }

    /**
     * Closes the session (owner thread, inside the close action): sends what is batched if the type
     * is complete; otherwise fails it and tells the peer, without throwing (see the end).
     */
    final void end() {
        if (closed) {
            return;
        }
        output.leaveThread();
        if (failure != null) {
            closed = true;
            releaseBuffers();
            connection.closeFailed();
            return;
        }
        State s = state;
        if (s.kind() == State.Kind.END) {
            if (output.isPending()) {
                try {
                    output.flush();
                } catch (SJIOException e) {
                    // Everything was sent that could be; the session's type is complete.
                }
            }
            closed = true;
            releaseBuffers();
            connection.close();
            return;
        }
        String reason = "the session was closed before its type was complete; its next action was " + s.describe();
        output.discard();
        fail("the peer closed the session before completing it; the peer's next action was " + s.describe(), true,
                null);
        failure = reason;
        closed = true;
        // No exception here: a close of an incomplete session is how a program abandons it (checked code
        // reaches it only on an exception path, in a finally block or a try-with-resources), and a throw would
        // replace the program's own exception (adv12 A4). The peer is told; a later action here says why; the
        // runtime's abandoned-session listener (SJRuntime.onAbandonedSession) hears of it.
        if (settings.context() != null) {
            settings.context().events().abandoned(reason);
        }
    }
}
