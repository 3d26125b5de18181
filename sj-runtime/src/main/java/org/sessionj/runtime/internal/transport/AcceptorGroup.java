package org.sessionj.runtime.internal.transport;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.support.PendingConnections;

/**
 * The acceptors of one server socket (paper 000 §5.3): its setup transports on the session port,
 * and its other session transports each on a port of their own. With several, a virtual thread per
 * acceptor feeds one queue of accepted connections, each tagged with the transport that took it.
 *
 * <p>That queue is short ({@link #QUEUE_BOUND}): it only merges the acceptors' queues, which do the holding
 * (each up to {@link PendingConnections#BOUND} connections nobody took, then it stops accepting and the next
 * peers wait in the kernel's backlog). A member's thread holds the one connection it took while the queue
 * is full and takes no more, so its acceptor's queue fills. Before, the threads moved every accepted
 * connection into an unbounded queue, so a server on more than one transport (the default) held every
 * connection of a slowloris (a descriptor and a connection's memory each) however many came, and its
 * acceptors' bound never stopped them accepting, while one on a single transport held at most 4,096 of
 * them besides its handshakes (with a queue of 4,096 here, twice that: 12,288 descriptors in a flood of
 * 15,000). Closing the group closes the connections nobody took.
 */
public final class AcceptorGroup implements AutoCloseable {
    private final List<Member> members;
    private final List<Negotiation.Offer> offers;
    private final int sessionPort;
    /** Names this server socket in AGREED, so that a requester going straight to one of its acceptors finds the same one. */
    private final java.util.UUID id = RandomIds.next();
    private final LinkedBlockingQueue<Object> accepted;
    /** Room in {@link #accepted} for connections: a member's thread takes one before it accepts. */
    private final java.util.concurrent.Semaphore room = new java.util.concurrent.Semaphore(QUEUE_BOUND, true);
    /** How many accepted connections the group's own queue holds at most (the acceptors' queues hold the rest). */
    static final int QUEUE_BOUND = 64;
    private volatile boolean closed;

    /** One acceptor of the group; {@code setup} when it serves the session port. */
    record Member(Transport transport, ConnectionAcceptor acceptor, boolean setup) {
    }

    /** A connection accepted by the group, with the transport that accepted it. */
    public record Accepted(Connection connection, String transport) {
    }

    AcceptorGroup(List<Member> members, TransportManager.Plan plan, int sessionPort) {
        this.members = List.copyOf(members);
        this.sessionPort = sessionPort;
        this.offers = plan.session().stream()
                .filter(t -> members.stream().anyMatch(m -> m.transport() == t))
                .map(t -> new Negotiation.Offer(t.name(), portOf(t), Negotiation.Reach.of(t))).toList();
        if (members.size() == 1) {
            this.accepted = null;
            return;
        }
        this.accepted = new LinkedBlockingQueue<>();
        for (Member member : members) {
            Thread.ofVirtual().name("sj-accept-" + member.transport().name() + "-" + member.acceptor().port())
                    .start(() -> pump(member));
        }
    }

    private int portOf(Transport transport) {
        return members.stream().filter(m -> m.transport() == transport).findFirst().orElseThrow().acceptor().port();
    }

    private void pump(Member member) {
        String transport = member.transport().name();
        while (!closed) {
            try {
                Connection connection = member.acceptor().accept(-1);
                if (connection == null) {
                    continue;
                }
                try {
                    room.acquire(); // holding this one connection: its acceptor's queue holds the next
                } catch (InterruptedException e) {
                    connection.close();
                    return;
                }
                Accepted taken = new Accepted(connection, transport);
                accepted.add(taken);
                if (closed && accepted.remove(taken)) { // closed meanwhile: close() may have missed it
                    connection.close();
                }
            } catch (IOException e) {
                accepted.add(e);
                return;
            } catch (RuntimeException | Error e) {
                // The acceptor's own code failed (a class that cannot be loaded any more, say): this
                // thread ends, so accept() must say so rather than wait for connections that never come.
                accepted.add(new IOException("the " + transport + " acceptor of session port " + sessionPort
                        + " failed: " + e, e));
                return;
            }
        }
    }

    /**
     * Offers the connections of every member that can hand them over on the connecting thread
     * ({@link ConnectionAcceptor#handOverInline}) to {@code handler}, with the member's transport name.
     */
    public void handOverInline(java.util.function.BiPredicate<Connection, String> handler) {
        for (Member member : members) {
            String transport = member.transport().name();
            member.acceptor().handOverInline(connection -> handler.test(connection, transport));
        }
    }

    /** Lets every member count its transport-level handshakes in {@code slots} ({@link ConnectionAcceptor#countHandshakes}). */
    public void countHandshakes(org.sessionj.runtime.spi.HandshakeSlots slots) {
        members.forEach(m -> m.acceptor().countHandshakes(slots));
    }

    /** The session port of the group (where its setup transports listen). */
    public int port() {
        return sessionPort;
    }

    /** This group's acceptor id (docs/negotiation.md, "Straight to a local acceptor"). */
    public java.util.UUID id() {
        return id;
    }

    /** The session transports this group offers, in order of preference, each with its port. */
    public List<Negotiation.Offer> offers() {
        return offers;
    }

    /** The next connection on any transport; null after {@code timeoutNanos} (non-negative). */
    public Accepted accept(long timeoutNanos) throws IOException {
        if (accepted == null) {
            Member only = members.get(0);
            Connection connection = only.acceptor().accept(timeoutNanos);
            return connection == null ? null : new Accepted(connection, only.transport().name());
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
        room.release();
        return (Accepted) next;
    }

    /** How many accepted connections wait in the group's queue (for tests). */
    int waiting() {
        return accepted == null ? 0 : (int) accepted.stream().filter(Accepted.class::isInstance).count();
    }

    @Override
    public void close() {
        closed = true;
        members.forEach(m -> m.acceptor().close());
        if (accepted != null) {
            room.release(members.size()); // a member's thread waiting for room wakes and finds the group closed
            for (Object next : accepted.toArray()) {
                if (next instanceof Accepted a && accepted.remove(a)) {
                    a.connection().close();
                }
            }
        }
    }
}
