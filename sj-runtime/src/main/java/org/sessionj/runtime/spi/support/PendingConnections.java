package org.sessionj.transport.http.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.sessionj.runtime.spi.Connection;

/** The connections an acceptor has and nobody has taken yet; closing wakes every waiting {@link #take}. */
final class PendingConnections {
    private static final Object CLOSED = new Object();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Supplier<String> acceptor;
    private volatile boolean closed;

    /** A queue of the acceptor {@code acceptor} names (for errors). */
    PendingConnections(Supplier<String> acceptor) {
        this.acceptor = acceptor;
    }

    /** Queues {@code connection}, or closes it if the acceptor closed. */
    void add(Connection connection) {
        queue.add(connection);
        if (closed && queue.remove(connection)) {
            connection.close();
        }
    }

    /** The next connection; null after {@code timeoutNanos} (negative: no limit). */
    Connection take(long timeoutNanos) throws IOException {
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

    /** Closes the connections nobody took and fails every waiter. */
    void close() {
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
