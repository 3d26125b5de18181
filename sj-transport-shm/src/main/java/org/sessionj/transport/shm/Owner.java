package org.sessionj.transport.shm;

import java.io.IOException;
import java.time.Duration;

/**
 * Which thread an end of an in-JVM connection belongs to, so that its peer can tell an end whose
 * thread ended without closing it (an exception that escaped, a thread pool shut down) from one that
 * is merely quiet. In-JVM peers send no heartbeats: the thread is the liveness.
 *
 * <p>The owner is the thread that last read or wrote on the end: one plain load and compare per
 * read or write, a store only when the thread changes. The runtime clears it when it hands a session
 * to another thread ({@link ShmConnection#releaseOwner}), so a session waiting in {@code accept()}'s
 * queue is not judged by the handshake thread that made it.
 */
final class Owner {
    /** The last thread that used the end, or null (none yet, or handed over). Plain: read racily by the watcher. */
    private Thread thread;

    /** The current thread uses the end. */
    void claim() {
        Thread current = Thread.currentThread();
        if (thread != current) {
            thread = current;
        }
    }

    /** The current thread hands the end to another one that has not used it yet. */
    void release() {
        thread = null;
    }

    Thread thread() {
        return thread;
    }

    /**
     * One watcher's view of an end's owner (the peer waiting to read from it, or to write to it): an
     * owner seen dead at two looks at least {@code graceNanos} apart, with no other thread taking the
     * end in between, has left the end orphaned. The grace lets a socket move to another thread
     * (handed to a pool, say) whose first action comes a little after its old thread ended.
     */
    static final class Watch {
        private final long graceNanos;
        private Thread dead;
        private long deadSince;

        Watch(long graceNanos) {
            this.graceNanos = graceNanos;
        }

        /**
         * Looks at {@code end}'s owner.
         *
         * @param end the peer's end
         * @param role what the watcher waits for, for the message ("to read", "for room to write")
         * @throws IOException naming the dead thread when the end is orphaned
         */
        void check(ShmConnection end, String role) throws IOException {
            Thread owner = end.owner().thread();
            if (owner == null || owner.isAlive() || end.isClosed()) {
                dead = null;
                return;
            }
            long now = System.nanoTime();
            if (owner != dead) {
                dead = owner;
                deadSince = now;
                return;
            }
            if (now - deadSince >= graceNanos) {
                throw new IOException("the peer's end of this in-JVM connection is orphaned: its thread \""
                        + owner.getName() + "\" ended without closing it (seen ended for "
                        + Duration.ofNanos(now - deadSince).toMillis() + " ms while this side waited " + role
                        + "; sessionj.shm.orphanTimeout)");
            }
        }
    }
}
