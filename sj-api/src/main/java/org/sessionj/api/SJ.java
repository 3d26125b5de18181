package org.sessionj.api;

import org.sessionj.api.spi.SessionRuntimeProvider;

/** Multicast session actions: one action on several sockets that must all agree on it. */
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
}
