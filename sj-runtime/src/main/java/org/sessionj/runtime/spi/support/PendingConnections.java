package org.sessionj.runtime.spi.support;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.sessionj.runtime.spi.Connection;

/**
 * The connections an acceptor has and nobody has taken yet, shared by the transports' acceptors: a
 * {@link #take} may wait with a timeout and from several threads at once, and closing closes what nobody
 * took and wakes every waiter.
 */
public final class PendingConnections {
    private static final Object CLOSED = new Object();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Supplier<String> acceptor;
    private volatile boolean closed;

    /**
     * A queue for an acceptor.
     *
     * @param acceptor names the acceptor in errors, e.g. {@code "tcp acceptor on port 4000"}
     */
    public PendingConnections(Supplier<String> acceptor) {
        this.acceptor = acceptor;
    }

    /**
     * Queues {@code connection}, or closes it if the queue is closed.
     *
     * @param connection a connection ready to be taken
     */
    public void add(Connection connection) {
        queue.add(connection);
        if (closed && queue.remove(connection)) {
            connection.close();
        }
    }

    /**
     * The next connection.
     *
     * @param timeoutNanos how long to wait; negative: no limit
     * @return the connection, or null after {@code timeoutNanos}
     * @throws IOException if the queue is closed (also while waiting), or on an interrupt
     */
    public Connection take(long timeoutNanos) throws IOException {
        if (closed) {
            throw closedException();
        }
        Object next;
        try {
            next = timeoutNanos < 0 ? queue.take() : queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while accepting on " + acceptor.get());
        }
        if (next == CLOSED) {
            queue.add(CLOSED); // for the next waiter
            throw closedException();
        }
        return (Connection) next;
    }

    /** Closes the connections nobody took and fails every waiter, now and later. */
    public void close() {
        closed = true;
        Object next;
        while ((next = queue.poll()) != null) {
            if (next instanceof Connection connection) {
                connection.close();
            }
        }
        queue.add(CLOSED);
    }

    private IOException closedException() {
        return new IOException(acceptor.get() + " is closed");
    }
}
