package org.sessionj.runtime.spi;

import java.io.IOException;

/** An open session port that queues connection requests (the paper's {@code SJConnectionAcceptor}). */
public interface ConnectionAcceptor extends AutoCloseable {

    /** The session port this acceptor listens on. */
    int port();

    /**
     * Waits for the next connection request and returns this side's end of the new connection.
     *
     * @param timeoutNanos how long to wait; negative waits forever
     * @return the connection, or {@code null} if the timeout passed first
     * @throws IOException if the acceptor is closed (also while waiting)
     */
    Connection accept(long timeoutNanos) throws IOException;

    /**
     * Optional: from now on, offers each new connection whose peer is in this JVM to {@code handler}
     * on the peer's own thread, once the peer has written its first frame, instead of queuing it for
     * {@link #accept}: the session's handshake then runs without a thread hand-off, and the peer finds
     * the answer to its first frame when it first reads. The handler must not block on the peer (the
     * first frame is there; the peer's thread is the caller), must not throw, and returns false to have
     * the connection queued for {@link #accept} after all. The default offers nothing.
     *
     * @return whether this acceptor will offer connections to {@code handler}
     */
    default boolean handOverInline(java.util.function.Predicate<Connection> handler) {
        return false;
    }

    /**
     * Optional: from now on, every connection this acceptor holds in a handshake of its transport's
     * own (TLS) before {@link #accept} can return it takes a slot of {@code slots} (the server socket's
     * pending-handshake limit) for that time, and waits while none is free. The default, for transports
     * that have no such handshake, counts nothing: their connections are counted once accepted.
     */
    default void countHandshakes(HandshakeSlots slots) {
    }

    /** Stops accepting: waiting {@link #accept} calls and later connects fail. Idempotent. */
    @Override
    void close();
}
