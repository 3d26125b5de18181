package org.sessionj.api;

import org.sessionj.api.spi.SessionRuntimeProvider;

/**
 * Multicast session actions (one action on several sockets that must all agree on it), session
 * scopes and session threads.
 */
public final class SJ {
    private SJ() {
    }

    /** {@code <s1, …>.outwhile(condition)}: one iteration decision sent to every socket. Only as a {@code while} condition. */
    public static boolean outwhile(boolean condition, SJSocket... sockets) {
        return SessionRuntimeProvider.get().multicastOutwhile(condition, sockets);
    }

    /** {@code <s1, …>.inwhile()}: every socket's peer must make the same decision, which is returned. */
    public static boolean inwhile(SJSocket... sockets) {
        return SessionRuntimeProvider.get().multicastInwhile(sockets);
    }

    /** A new, empty scope of sessions that fail together (see {@link SJScope}). */
    public static SJScope scope() {
        return SessionRuntimeProvider.get().openScope();
    }

    /**
     * Sends a copy of {@code message} on every socket. One {@code Object} overload on purpose:
     * primitive overloads next to it make {@code SJ.send(5, s1, s2)} ambiguous under varargs; a boxed
     * value is sent as its primitive when the type says so.
     */
    public static void send(Object message, SJSocket... sockets) {
        for (SJSocket socket : sockets) {
            socket.send(message);
        }
    }

    /**
     * Join over sessions: the next message of every socket, each received as soon as it is ready (in
     * whatever order the peers send), returned in the order of {@code sockets}. Checked like a
     * multicast: every socket must be at {@code ?(T)} for a {@code T} the result's element type accepts,
     * and each one moves past it. A master gathering one result from each worker:
     *
     * <pre>{@code
     * List<Double> errors = SJ.join(north, south);   // both at ?(double)
     * }</pre>
     *
     * A session that fails raises {@link SJIOException} here (what was received from the others is
     * lost with it: a failure fails the whole join).
     */
    @SuppressWarnings("unchecked")
    public static <T> java.util.List<T> join(SJSocket... sockets) {
        return (java.util.List<T>) SessionRuntimeProvider.get().join(sockets.clone());
    }

    /**
     * Starts a session thread (a new virtual thread) that owns {@code socket} and runs {@code body} on
     * it. Ownership moves: the caller may not use {@code socket} again, and the body must complete the
     * session's remaining type. The body is a lambda with an {@link Session @Session} parameter or a
     * reference to a method with one, so sj-processor checks it:
     *
     * <pre>{@code
     * while (true) {
     *     SJSocket s = server.accept();
     *     SJ.spawn(s, this::serve);      // void serve(@Session("?(int).!<int>") SJSocket s)
     * }
     * }</pre>
     *
     * Output the caller batched on the session is sent before the thread starts. When the body ends the
     * thread closes the session (failing it if incomplete); a failure of the body is logged and raised
     * by {@link SJThread#join()}.
     */
    public static SJThread spawn(SJSocket socket, SJThread.Body body) {
        java.util.Objects.requireNonNull(body, "body");
        return SessionRuntimeProvider.get().spawn(new SJSocket[] {socket}, () -> body.run(socket));
    }

    /** Like {@link #spawn(SJSocket, SJThread.Body)}, for a body that owns two sessions. */
    public static SJThread spawn(SJSocket a, SJSocket b, SJThread.Body2 body) {
        java.util.Objects.requireNonNull(body, "body");
        if (a == b) {
            throw new IllegalArgumentException("one session given twice to one session thread");
        }
        return SessionRuntimeProvider.get().spawn(new SJSocket[] {a, b}, () -> body.run(a, b));
    }
}
