package org.sessionj.runtime.internal.session;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.transport.AcceptorGroup;

/**
 * The handshakes of one server socket, off the thread that calls {@code accept()}: a virtual thread
 * takes connections from the acceptor group and starts a virtual thread per connection that runs its
 * initiation with its own deadline (the initiation timeout). Compatible sessions queue for
 * {@code accept()}; a requester that stalls, lies or is incompatible fails only its own handshake,
 * which is logged and counted ({@link #failures()}).
 *
 * <p>Bounded: at most {@code maxPending} connections are in a handshake or agreed and waiting for
 * {@code accept()}; at the limit no new connection is taken (they wait in the transport's backlog)
 * until one of those ends. A slot is given back when its handshake fails, moves to another
 * transport, or its session is taken.
 */
final class Handshakes implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Handshakes.class.getName());
    /** Queued for {@code accept()} when the acceptor group fails or closes. */
    private record Ended(IOException cause) {
    }

    private final AcceptorGroup acceptors;
    private final CompiledProtocol protocol;
    private final SessionContext context;
    private final Semaphore slots;
    private final LinkedBlockingQueue<Object> ready = new LinkedBlockingQueue<>();
    private final AtomicLong failures = new AtomicLong();
    /** Told the reason of every failed handshake, or null. */
    private volatile java.util.function.Consumer<? super org.sessionj.api.SJException> failureListener;
    /** Connections in a handshake, closed when the server socket closes. */
    private final java.util.Set<org.sessionj.runtime.spi.Connection> inFlight =
            java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Connections in a handshake or agreed and waiting for {@code accept()}. */
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean closed;

    Handshakes(AcceptorGroup acceptors, CompiledProtocol protocol, SessionContext context) {
        this.acceptors = acceptors;
        this.protocol = protocol;
        this.context = context;
        this.slots = new Semaphore(context.config().maxPendingHandshakes());
    }

    /** Starts taking connections (once, when the server socket opens). */
    void start() {
        Thread.ofVirtual().name("sj-handshakes-" + acceptors.port()).start(this::pump);
    }

    private void pump() {
        while (!closed) {
            try {
                slots.acquire();
            } catch (InterruptedException e) {
                return;
            }
            AcceptorGroup.Accepted accepted;
            try {
                accepted = acceptors.accept(-1);
            } catch (IOException e) {
                slots.release();
                ready.add(new Ended(e));
                return;
            }
            if (accepted == null) {
                slots.release();
                continue;
            }
            pending.incrementAndGet();
            Thread.ofVirtual().name("sj-handshake-" + acceptors.port()).start(() -> handshake(accepted));
        }
    }

    private void handshake(AcceptorGroup.Accepted accepted) {
        SessionSocket session;
        inFlight.add(accepted.connection());
        if (closed) {
            accepted.connection().close();
        }
        try {
            session = Initiation.accept(accepted, acceptors.offers(), acceptors.id(), protocol, context);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            inFlight.remove(accepted.connection());
            // One requester's failure is not the server's: its connection closes, accept() goes on.
            accepted.connection().close();
            failed(accepted, e);
            released();
            return;
        }
        inFlight.remove(accepted.connection());
        if (session == null) {
            released(); // negotiated onto another transport: its connection is accepted anew
            return;
        }
        session.releaseThread(); // this handshake thread ends here; the program's thread takes the session
        ready.add(session);
        if (closed && ready.remove(session)) {
            session.connection().close();
            released();
        }
    }

    /** A connection's slot is free again (its handshake failed or moved, or its session was taken). */
    private void released() {
        pending.decrementAndGet();
        slots.release();
    }

    private void failed(AcceptorGroup.Accepted accepted, Throwable e) {
        long count = failures.incrementAndGet();
        java.util.function.Consumer<? super org.sessionj.api.SJException> listener = failureListener;
        if (listener != null) {
            try {
                listener.accept(e instanceof org.sessionj.api.SJException sj ? sj
                        : new org.sessionj.api.SJIOException("session initiation failed: " + e, e));
            } catch (RuntimeException listenerFailure) {
                LOG.log(System.Logger.Level.WARNING, "a failed-handshake listener failed", listenerFailure);
            }
        }
        // Every failure at DEBUG; the first and then each power of two at INFO, so a flood of bad
        // requesters cannot flood the log.
        boolean loud = (count & (count - 1)) == 0;
        LOG.log(loud ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                () -> "session port " + acceptors.port() + ": refused a session request over " + accepted.transport()
                        + " (" + count + " so far): " + e);
    }

    /**
     * The next compatible session: the session, {@code null} after {@code timeoutNanos} (negative
     * waits forever).
     *
     * @throws IOException if the acceptors failed or were closed
     */
    SessionSocket next(long timeoutNanos) throws IOException {
        Object next;
        try {
            next = timeoutNanos < 0 ? ready.take() : ready.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while accepting on session port " + acceptors.port());
        }
        if (next == null) {
            return null;
        }
        if (next instanceof Ended ended) {
            ready.add(ended); // for the next caller
            throw new IOException(ended.cause().getMessage(), ended.cause());
        }
        released();
        return (SessionSocket) next;
    }

    /** Sets the one listener told the reason of each failed handshake (null: none). */
    void failureListener(java.util.function.Consumer<? super org.sessionj.api.SJException> listener) {
        this.failureListener = listener;
    }

    /** How many session requests failed their handshake (refused, incompatible, malformed, timed out). */
    long failures() {
        return failures.get();
    }

    /** Handshakes in progress plus sessions waiting for {@code accept()}. */
    int pending() {
        return pending.get();
    }

    /** Closes the connections in a handshake and the sessions agreed but not taken. */
    @Override
    public void close() {
        closed = true;
        slots.release(); // a pump waiting for a slot wakes, finds the acceptors closed and ends
        inFlight.forEach(org.sessionj.runtime.spi.Connection::close);
        Object next;
        while ((next = ready.poll()) != null) {
            if (next instanceof SessionSocket session) {
                session.connection().close();
                released();
            }
        }
        ready.add(new Ended(new IOException("session port " + acceptors.port() + " is closed")));
    }
}
