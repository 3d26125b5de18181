package org.sessionj.runtime.internal.session;

/**
 * Fails a session whose thread ended with it open (adv18 A13) on a thread of its own: the failure writes a
 * notice to the connection, which must not hold the transport's timer that found it. A class rather than a
 * lambda: the session classes link no lambda on their start-up path (issue 15), and this runs rarely.
 */
final class OrphanedSession implements Runnable {
    private final SessionLifecycle session;
    private final Thread owner;

    OrphanedSession(SessionLifecycle session, Thread owner) {
        this.session = session;
        this.owner = owner;
    }

    @Override
    public void run() {
        session.failOrphaned(owner);
    }
}
