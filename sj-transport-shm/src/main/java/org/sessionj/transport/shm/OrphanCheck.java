package org.sessionj.transport.shm;

import java.io.IOException;
import java.time.Duration;

/**
 * One watcher's view of the thread of an in-JVM end it waits on (a parked reader's peer, looked at
 * by {@link OrphanWatch}; a blocked writer's reader, looked at by the writer): an owner seen ended at
 * two looks at least {@code graceNanos} apart, with no other thread taking the end in between, has
 * left the end orphaned. The grace lets a socket move to another thread (handed to a pool, say) whose
 * first action comes a little after its old thread ended.
 *
 * <p>In-JVM peers send no heartbeats: the thread is the liveness. The owner is the thread that last
 * read or wrote on the end ({@link ShmConnection#owner()}); the runtime clears it when it hands a
 * session to another thread ({@link ShmConnection#releaseOwner}), so a session waiting in
 * {@code accept()}'s queue is not judged by the handshake thread that made it.
 */
final class OrphanCheck {
    private final long graceNanos;
    private Thread dead;
    private long deadSince;

    OrphanCheck(long graceNanos) {
        this.graceNanos = graceNanos;
    }

    /**
     * Whether {@code end}'s owner has ended (and the end is open): only then does a watcher need an
     * {@code OrphanCheck} to time the grace, so that a million live peers cost no check object each.
     */
    static boolean ownerEnded(ShmConnection end) {
        Thread owner = end.owner();
        return owner != null && !owner.isAlive() && !end.isClosed();
    }

    /** Whether the last look saw the owner ended (the grace is being timed). */
    boolean timing() {
        return dead != null;
    }

    /**
     * Looks at {@code end}'s owner.
     *
     * @param end the peer's end
     * @param role what the watcher waits for, for the message ("to read", "for room to write")
     * @throws IOException naming the ended thread when the end is orphaned
     */
    void check(ShmConnection end, String role) throws IOException {
        Thread owner = end.owner();
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
