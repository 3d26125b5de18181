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
 *
 * <p>Bounded by the acceptor: once {@link #isFull()} (it holds {@link #BOUND} connections) an acceptor
 * stops accepting until {@link #whenRoom} tells it the queue is at most half full again, so that peers
 * who connect faster than the server takes their connections wait in the kernel's listen backlog (then
 * retry their connect) instead of each holding a descriptor and a connection's memory here.
 */
public final class PendingConnections {
    /** How many connections nobody took an acceptor holds before it stops accepting. */
    public static final int BOUND = 4096;
    private static final Object CLOSED = new Object();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Supplier<String> acceptor;
    private final java.util.concurrent.atomic.AtomicReference<Runnable> whenRoom =
            new java.util.concurrent.atomic.AtomicReference<>();
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
        if (whenRoom.get() != null && queue.size() <= BOUND / 2) {
            runWhenRoom();
        }
        return (Connection) next;
    }

    /** Whether the queue holds {@link #BOUND} connections nobody took: the acceptor should stop accepting. */
    public boolean isFull() {
        return queue.size() >= BOUND;
    }

    /**
     * Runs {@code action} once, as soon as the queue is at most half full (at once if it is now), or
     * when it closes: the acceptor resumes accepting. A later call replaces an action not yet run.
     */
    public void whenRoom(Runnable action) {
        whenRoom.set(action);
        if (queue.size() <= BOUND / 2 || closed) {
            runWhenRoom();
        }
    }

    private void runWhenRoom() {
        Runnable action = whenRoom.getAndSet(null);
        if (action != null) {
            action.run();
        }
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
        runWhenRoom();
    }

    private IOException closedException() {
        return new IOException(acceptor.get() + " is closed");
    }
}
