package org.sessionj.runtime.internal.session;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSocket;

/**
 * Join over sessions ({@code SJ.join}): the next message of every session, each received as soon as
 * it is ready, in whatever order they arrive. The calling thread parks while none is ready and is
 * woken by the sessions' readiness listeners; a listener already set (a selector's) keeps being called,
 * and is put back at the end.
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
        int left = sessions.length;
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
            while (left > 0) {
                int received = 0;
                for (int i = 0; i < sessions.length; i++) {
                    if (!done[i] && sessions[i].isInputReady()) {
                        values[i] = sessions[i].receive();
                        done[i] = true;
                        received++;
                    }
                }
                left -= received;
                if (left > 0 && received == 0) {
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
        return Collections.unmodifiableList(Arrays.asList(values));
    }
}
