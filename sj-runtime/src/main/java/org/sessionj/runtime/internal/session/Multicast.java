package org.sessionj.runtime.internal.session;

import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSocket;

/** {@code <s1, …>.outwhile(e)} and {@code <s1, …>.inwhile()}: one iteration decision over several sessions. */
public final class Multicast {
    private Multicast() {
    }

    /** Sends {@code condition} on every socket (each checked by its own monitor) and returns it. */
    public static boolean outwhile(boolean condition, SJSocket... sockets) {
        requireSome(sockets);
        for (SJSocket socket : sockets) {
            socket.outwhile(condition);
        }
        return condition;
    }

    /**
     * Reads every socket's iteration decision; they must all agree. If they do not, every socket is
     * failed (its peer is told) and {@link SJIOException} names the disagreement.
     */
    public static boolean inwhile(SJSocket... sockets) {
        requireSome(sockets);
        boolean[] decisions = new boolean[sockets.length];
        for (int i = 0; i < sockets.length; i++) {
            decisions[i] = sockets[i].inwhile();
        }
        for (int i = 1; i < sockets.length; i++) {
            if (decisions[i] != decisions[0]) {
                String reason = "multicast inwhile: the peers disagree (" + describe(decisions) + ")";
                for (SJSocket socket : sockets) {
                    if (socket instanceof SessionSocket session) {
                        session.failFromElsewhere(reason);
                    }
                }
                throw new SJIOException(reason);
            }
        }
        return decisions[0];
    }

    private static String describe(boolean[] decisions) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < decisions.length; i++) {
            out.append(i == 0 ? "" : ", ").append("session ").append(i).append(decisions[i] ? " continues" : " stops");
        }
        return out.toString();
    }

    private static void requireSome(SJSocket[] sockets) {
        if (sockets == null || sockets.length == 0) {
            throw new IllegalArgumentException("a multicast needs at least one session");
        }
    }
}
