package org.sessionj.runtime.internal.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;

/**
 * Waits on many sessions; yields them round-robin among those ready, so no ready session waits for
 * more than one turn of the others. Used by one thread (the owner of the registered sessions).
 */
public final class SessionSelector implements SJSelector {
    private final ArrayList<SessionSocket> registered = new ArrayList<>();
    private final Runnable wakeUp = this::wakeUp;
    private volatile Thread waiter;
    private int cursor;

    @Override
    public void register(SJSocket socket) {
        if (!(socket instanceof SessionSocket session)) {
            throw new IllegalArgumentException("not a socket of this runtime: " + socket);
        }
        if (!registered.contains(session)) {
            registered.add(session);
            session.readinessListener(wakeUp);
        }
    }

    @Override
    public void deregister(SJSocket socket) {
        if (socket instanceof SessionSocket session && registered.remove(session)) {
            session.readinessListener(null);
        }
    }

    @Override
    public SJSocket select() {
        return select(-1);
    }

    @Override
    public SJSocket select(Duration timeout) {
        return select(timeout.toNanos());
    }

    private SJSocket select(long timeoutNanos) {
        if (registered.isEmpty()) {
            throw new IllegalStateException("select() on a selector with no sessions would wait forever");
        }
        SessionSocket ready = nextReady();
        if (ready != null) {
            return ready;
        }
        PendingOutputs.flushAll();
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        waiter = Thread.currentThread();
        try {
            while (true) {
                ready = nextReady();
                if (ready != null) {
                    return ready;
                }
                if (timeoutNanos < 0) {
                    LockSupport.park(this);
                } else {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        throw new SJTimeoutException("no session had input within " + Duration.ofNanos(timeoutNanos));
                    }
                    LockSupport.parkNanos(this, remaining);
                }
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new org.sessionj.api.SJIOException("interrupted while selecting");
                }
            }
        } finally {
            waiter = null;
        }
    }

    /** The first ready session at or after the cursor, moving the cursor past it. */
    private SessionSocket nextReady() {
        int size = registered.size();
        for (int i = 0; i < size; i++) {
            int index = (cursor + i) % size;
            SessionSocket session = registered.get(index);
            if (session.isInputReady()) {
                cursor = index + 1;
                return session;
            }
        }
        return null;
    }

    private void wakeUp() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public void close() {
        for (SessionSocket session : registered) {
            session.readinessListener(null);
        }
        registered.clear();
    }
}
