package org.sessionj.transport.shm;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;

/** An in-JVM session port: connects enqueue the accepter's end of a fresh connection pair. */
final class ShmAcceptor implements ConnectionAcceptor {
    /** Wakes waiting accepts on close; each one puts it back for the next. */
    private static final ShmConnection CLOSED = new ShmConnection(new Pipe(ShmSettings.UNBOUNDED), new Pipe(ShmSettings.UNBOUNDED), null);

    private final int port;
    private final ShmPortRegistry registry;
    private final LinkedBlockingQueue<ShmConnection> pending = new LinkedBlockingQueue<>();
    private volatile boolean closed;
    /** Takes connections on the connecting thread ({@link #handOverInline}), or null. */
    private volatile Predicate<Connection> inline;

    ShmAcceptor(int port, ShmPortRegistry registry) {
        this.port = port;
        this.registry = registry;
    }

    @Override
    public int port() {
        return port;
    }

    /** Called by a connecting peer with the accepter's end. */
    void enqueue(ShmConnection accepterEnd) throws IOException {
        if (closed) {
            throw refused();
        }
        pending.add(accepterEnd);
        if (closed && pending.remove(accepterEnd)) {
            // Closed while we queued: nobody will accept it.
            throw refused();
        }
    }

    @Override
    public boolean handOverInline(Predicate<Connection> handler) {
        inline = handler;
        return true;
    }

    /** Whether connections go to the inline handler (on their first write) rather than to the queue. */
    boolean takesInline() {
        return inline != null;
    }

    /**
     * The connecting thread, after its first write on the requester's end: offers the accepter's end to
     * the inline handler, or queues it if the handler declines; closes it if this acceptor closed
     * meanwhile (the requester then reads that its peer closed).
     */
    void handOver(ShmConnection accepterEnd) {
        Predicate<Connection> handler = inline;
        if (closed) {
            accepterEnd.close();
            return;
        }
        if (handler != null && handler.test(accepterEnd)) {
            return;
        }
        try {
            enqueue(accepterEnd);
        } catch (IOException e) {
            accepterEnd.close();
        }
    }

    /** Whether this acceptor was closed. */
    boolean isClosed() {
        return closed;
    }

    private IOException refused() {
        return new IOException("connection refused: the in-JVM acceptor on session port " + port + " is closed");
    }

    @Override
    public Connection accept(long timeoutNanos) throws IOException {
        if (closed) {
            throw new IOException("in-JVM acceptor on session port " + port + " is closed");
        }
        ShmConnection next;
        try {
            next = timeoutNanos < 0 ? pending.take() : pending.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while accepting on session port " + port);
        }
        if (next == CLOSED) {
            pending.add(CLOSED);
            throw new IOException("in-JVM acceptor on session port " + port + " is closed");
        }
        return next;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        registry.release(port, this);
        ShmConnection unaccepted;
        while ((unaccepted = pending.poll()) != null) {
            if (unaccepted != CLOSED) {
                unaccepted.close();
            }
        }
        pending.add(CLOSED);
    }
}
