package org.sessionj.runtime.internal.transport;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;

/**
 * The acceptors of one server socket, one per transport, on one session port. With several, a
 * virtual thread per acceptor feeds one queue of accepted connections.
 */
public final class AcceptorGroup implements AutoCloseable {
    private final List<ConnectionAcceptor> acceptors;
    private final LinkedBlockingQueue<Object> accepted;
    private volatile boolean closed;

    AcceptorGroup(List<ConnectionAcceptor> acceptors) {
        this.acceptors = List.copyOf(acceptors);
        if (acceptors.size() == 1) {
            this.accepted = null;
            return;
        }
        this.accepted = new LinkedBlockingQueue<>();
        for (ConnectionAcceptor acceptor : acceptors) {
            Thread.ofVirtual().name("sj-accept-" + acceptor.port()).start(() -> pump(acceptor));
        }
    }

    private void pump(ConnectionAcceptor acceptor) {
        while (!closed) {
            try {
                Connection connection = acceptor.accept(-1);
                if (connection != null) {
                    accepted.add(connection);
                }
            } catch (IOException e) {
                accepted.add(e);
                return;
            }
        }
    }

    /** The session port of the group. */
    public int port() {
        return acceptors.get(0).port();
    }

    /** The next connection on any transport; null after {@code timeoutNanos} (non-negative). */
    public Connection accept(long timeoutNanos) throws IOException {
        if (accepted == null) {
            return acceptors.get(0).accept(timeoutNanos);
        }
        Object next;
        try {
            next = timeoutNanos < 0 ? accepted.take() : accepted.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while accepting on session port " + port());
        }
        if (next instanceof IOException failure) {
            accepted.add(failure); // later accepts fail the same way
            throw new IOException(failure.getMessage(), failure);
        }
        return (Connection) next;
    }

    @Override
    public void close() {
        closed = true;
        acceptors.forEach(ConnectionAcceptor::close);
    }
}
