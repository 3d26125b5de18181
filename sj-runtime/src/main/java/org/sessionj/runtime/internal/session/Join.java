package org.sessionj.runtime.internal.session;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSocket;

/**
 * Join over sessions ({@code SJ.join}): the next message of every session, each received as soon as
 * it is ready, in whatever order they arrive. First without listeners: every session whose message
 * is there is received, and once one session is left its message is received as a {@code receive}
 * does (the reader sleeps in its own transport and is woken there directly; with a receive timeout
 * set, that timeout applies). Only while two or more are outstanding and none is ready does the calling
 * thread park, woken by the sessions' readiness listeners; a listener already set (a selector's) keeps
 * being called, and is put back at the end.
 *
 * <p>Why the listener path is the last resort (measured on the Jacobi demo across processes, whose
 * master joins two workers twice an iteration): over ipc a readiness listener hands the connection to
 * the doorbell thread (an {@code epoll_ctl} and a selector wake-up per install), makes every frame
 * ring a bell, and wakes the joining thread through that thread (a second wake-up), where a receive
 * is woken by the kernel directly or finds its frame already in the ring.
 */
public final class Join {
    private Join() {
    }

    /** Receives one message from each socket and returns them in the sockets' order. */
    public static List<Object> receiveAll(SJSocket[] sockets) {
        SessionSocket[] sessions = new SessionSocket[sockets.length];
        for (int i = 0; i < sockets.length; i++) {
            if (!(sockets[i] instanceof SessionSocket session)) {
                throw new IllegalArgumentException("not a socket of this runtime: " + sockets[i]);
            }
            for (int j = 0; j < i; j++) {
                if (sessions[j] == session) {
                    throw new IllegalArgumentException("one session given twice to one join");
                }
            }
            sessions[i] = session;
        }
        Object[] values = new Object[sessions.length];
        boolean[] done = new boolean[sessions.length];
        int left = receiveReady(sessions, values, done, sessions.length);
        if (left > 1) {
            left = awaitAllButOne(sessions, values, done, left);
        }
        if (left == 1) {
            receiveLast(sessions, values, done);
        }
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    /**
     * Receives messages as they come, parked between them and woken by readiness listeners, until at
     * most one is outstanding; returns how many are (0 or 1). The listeners are put back before it returns.
     */
    private static int awaitAllButOne(SessionSocket[] sessions, Object[] values, boolean[] done, int left) {
        Thread waiter = Thread.currentThread();
        Runnable[] previous = new Runnable[sessions.length];
        int installed = 0;
        try {
            for (; installed < sessions.length; installed++) {
                Runnable earlier = sessions[installed].readinessListener();
                previous[installed] = earlier;
                sessions[installed].readinessListener(earlier == null ? () -> LockSupport.unpark(waiter) : () -> {
                    LockSupport.unpark(waiter);
                    earlier.run();
                });
            }
            while (left > 1) {
                int before = left;
                left = receiveReady(sessions, values, done, left);
                if (left > 1 && left == before) {
                    // Nobody may wait for output this thread is sitting on while it waits itself.
                    PendingOutputs.flushAll();
                    LockSupport.park(Join.class);
                    if (Thread.interrupted()) {
                        Thread.currentThread().interrupt();
                        throw new SJIOException("interrupted while joining " + left + " of " + sessions.length
                                + " sessions");
                    }
                }
            }
        } finally {
            for (int i = 0; i < installed; i++) {
                sessions[i].readinessListener(previous[i]);
            }
        }
        return left;
    }

    /** Receives every outstanding message that is there; returns how many of {@code left} are still outstanding. */
    private static int receiveReady(SessionSocket[] sessions, Object[] values, boolean[] done, int left) {
        for (int i = 0; i < sessions.length; i++) {
            if (!done[i] && sessions[i].isInputReady()) {
                values[i] = sessions[i].receive();
                done[i] = true;
                left--;
            }
        }
        return left;
    }

    /** The one outstanding message, received as a {@code receive} receives it. */
    private static void receiveLast(SessionSocket[] sessions, Object[] values, boolean[] done) {
        for (int i = 0; i < sessions.length; i++) {
            if (!done[i]) {
                values[i] = sessions[i].receive();
                done[i] = true;
                return;
            }
        }
    }
}
