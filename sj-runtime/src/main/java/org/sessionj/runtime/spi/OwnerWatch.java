package org.sessionj.runtime.spi;

/**
 * What a connection's transport may ask of the session that runs over it from its own timer (the one that
 * sends heartbeats), so that a session whose thread ended with it open fails and its peer is told, rather
 * than the peer waiting for as long as this process lives (adv18 A13: heartbeats keep such a connection
 * alive). The runtime sets it on the connection when a session starts on it ({@link Connection#ownerWatch}).
 *
 * <p>A transport looks at most once per heartbeat interval ({@link org.sessionj.runtime.spi.support.OwnerLook}
 * keeps the grace): a thread seen ended at two looks in a row, with no action in between, has left the
 * session orphaned. The grace lets a program hand a session to another thread whose first action comes a
 * little after the old thread ended.
 */
public interface OwnerWatch {

    /**
     * The thread that acted on the session last, while no action is under way and the session is open;
     * {@code null} otherwise (an action is under way, the session ended or moved, or no thread has acted
     * since it was handed over). Any thread; no allocation, no lock.
     */
    Thread idleOwner();

    /**
     * {@code owner} was seen ended at two looks in a row: the session fails (unless a thread acted on it
     * meanwhile) and the peer is told why. Returns at once; the failure, which writes to the connection,
     * happens on a thread of its own, so the caller (an event loop, a keeper) is never held by it.
     */
    void ownerEnded(Thread owner);
}
