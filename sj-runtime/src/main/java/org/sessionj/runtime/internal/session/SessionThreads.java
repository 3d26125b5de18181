package org.sessionj.runtime.internal.session;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.sessionj.api.SJException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJThread;
import org.sessionj.runtime.spi.support.LazyLogger;

/**
 * Session threads ({@code SJ.spawn}): a virtual thread per body that owns the sessions it is given.
 * The handover sends what the spawning thread batched on them and takes them off its list of pending
 * output (else that thread would flush a session it no longer owns, from the wrong thread, the next
 * time it blocks); {@link Thread#start()} orders everything the spawner did before the body runs.
 */
public final class SessionThreads {
    /** The logger of failed session-thread bodies ({@code org.sessionj.runtime.session}). */
    static final String LOGGER = "org.sessionj.runtime.session";
    private static final System.Logger LOG = LazyLogger.of(LOGGER);
    private static final AtomicLong NUMBER = new AtomicLong();

    private SessionThreads() {
    }

    /** Hands {@code sockets} to a new virtual thread that runs {@code body} and then closes them. */
    public static SJThread spawn(SJSocket[] sockets, SJThread.Task body) {
        java.util.Objects.requireNonNull(body, "body");
        SJSocket[] owned = sockets.clone();
        for (int i = 0; i < owned.length; i++) {
            java.util.Objects.requireNonNull(owned[i], "socket");
            for (int j = 0; j < i; j++) {
                if (owned[j] == owned[i]) {
                    throw new IllegalArgumentException("one session given twice to one session thread");
                }
            }
        }
        for (SJSocket socket : owned) {
            if (socket instanceof SessionSocket session) {
                try {
                    session.flushForDelegation();
                } catch (SJException e) {
                    // The session has failed: the body learns it at its first action.
                }
                session.releaseThread(); // the spawning thread may end before the body first acts
            }
        }
        Spawned spawned = new Spawned(owned, body);
        spawned.thread = Thread.ofVirtual().name("sj-session-" + NUMBER.incrementAndGet()).unstarted(spawned::run);
        spawned.thread.start();
        return spawned;
    }

    /** One session thread: its body, its sessions, and how the body ended. */
    private static final class Spawned implements SJThread {
        private final SJSocket[] sockets;
        private final SJThread.Task body;
        private Thread thread;
        /** What the body threw, or null; written before the thread ends, read after join. */
        private volatile Throwable failure;

        Spawned(SJSocket[] sockets, SJThread.Task body) {
            this.sockets = sockets;
            this.body = body;
        }

        void run() {
            try {
                body.run();
            } catch (Throwable t) {
                failure = t;
                LOG.log(Level.WARNING, () -> "session thread " + Thread.currentThread().getName() + " failed: " + t, t);
            } finally {
                for (SJSocket socket : sockets) {
                    try {
                        socket.close(); // complete: ends normally; incomplete: fails it, so the peer learns of it
                    } catch (RuntimeException e) {
                        // Closing a failed or delegated session: nothing more to tell the peer.
                    }
                }
            }
        }

        @Override
        public void join() {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SJIOException("interrupted while waiting for session thread " + thread.getName(), e);
            }
            raise();
        }

        @Override
        public boolean join(Duration timeout) {
            try {
                if (!thread.join(timeout)) {
                    return false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SJIOException("interrupted while waiting for session thread " + thread.getName(), e);
            }
            raise();
            return true;
        }

        private void raise() {
            Throwable t = failure;
            if (t != null) {
                throw new SJException("session thread " + thread.getName() + " failed: " + t, t);
            }
        }

        @Override
        public boolean isAlive() {
            return thread.isAlive();
        }
    }
}
