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

    /** Sends a copy of {@code message} on every socket. */
    public static void send(Object message, SJSocket... sockets) {
        for (SJSocket socket : sockets) {
            socket.send(message);
        }
    }

    /** Sends an {@code int} on every socket. */
    public static void send(int message, SJSocket... sockets) {
        for (SJSocket socket : sockets) {
            socket.send(message);
        }
    }

    /** Sends a {@code long} on every socket. */
    public static void send(long message, SJSocket... sockets) {
        for (SJSocket socket : sockets) {
            socket.send(message);
        }
    }

    /** Sends a {@code double} on every socket. */
    public static void send(double message, SJSocket... sockets) {
        for (SJSocket socket : sockets) {
            socket.send(message);
        }
    }

    /** Sends a {@code boolean} on every socket. */
    public static void send(boolean message, SJSocket... sockets) {
        for (SJSocket socket : sockets) {
            socket.send(message);
        }
    }
}
