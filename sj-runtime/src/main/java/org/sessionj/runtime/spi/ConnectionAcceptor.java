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

    /** Stops accepting: waiting {@link #accept} calls and later connects fail. Idempotent. */
    @Override
    void close();
}
