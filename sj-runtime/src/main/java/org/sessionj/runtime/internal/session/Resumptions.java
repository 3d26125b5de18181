package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.spi.Frame;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.spi.support.LazyLogger;

/**
 * The resumption endpoint of a runtime (docs/delegation.md): where the peer of a delegated session
 * waits for the session's new owner to reconnect. Open only while this runtime, as the passive peer,
 * waits for a new owner: an acceptor group of the runtime's transports on a free port (of
 * {@code sessionj.bindAddress}), so the reconnection is negotiated like any session (and lands on the
 * in-JVM transport when the new owner is in this JVM). Reconnections present the token the delegator
 * announced; unknown tokens are refused.
 *
 * <p>The endpoint is a listening port like a server socket's, and whoever can announce a delegation (any
 * session partner) can have it opened and learns its port, so it is bounded like one (hostile22 H22-4): at
 * most {@code sessionj.maxPendingHandshakes} connections in their handshake at once; at the limit the oldest
 * is dropped (closed) for a new one. A new owner sends its request at once and is through in a round trip,
 * so it is never the oldest of thousands; before, every connection got a handshake thread of its own, and
 * 19,990 silent connections took a server's descriptors and then its heap (an event loop died of
 * {@code OutOfMemoryError} and the server never served again).
 */
public final class Resumptions implements AutoCloseable {
    private static final System.Logger LOG = LazyLogger.of(Resumptions.class.getName());

    private final java.util.function.Supplier<AcceptorGroup> opener;
    private final SJRuntimeConfig config;
    private final Map<UUID, CompletableFuture<Connection>> waiting = new ConcurrentHashMap<>();
    private volatile AcceptorGroup group;
    /** The connections in their handshake, oldest first; at most {@link SJRuntimeConfig#maxPendingHandshakes()}. */
    private final java.util.ArrayDeque<Connection> handshaking = new java.util.ArrayDeque<>();
    /** Handshakes dropped at the limit, for the log (first and each power of two). */
    private final java.util.concurrent.atomic.AtomicLong dropped = new java.util.concurrent.atomic.AtomicLong();

    Resumptions(TransportManager transports, SJRuntimeConfig config) {
        this(() -> transports.listen(listenable(transports.defaults()), 0), config);
    }

    /** An endpoint whose acceptor group {@code opener} opens (tests: acceptors they feed). */
    Resumptions(java.util.function.Supplier<AcceptorGroup> opener, SJRuntimeConfig config) {
        this.opener = opener;
        this.config = config;
    }

    /** Delegations this runtime waits for as the passive peer; the endpoint is open while there are any. */
    private int users;

    /**
     * Registers {@code token} and returns the endpoint's port, opening the endpoint if needed: the
     * reconnection that presents the token completes {@code expected}. Every call is paired with a
     * {@link #forget} of the same token, which closes the endpoint when no delegation waits any more:
     * a peer that announces delegations it never completes cannot keep a port open.
     */
    synchronized int open(UUID token, CompletableFuture<Connection> expected) {
        AcceptorGroup g = group;
        if (g == null) {
            g = opener.get();
            group = g;
            AcceptorGroup opened = g;
            Thread.ofVirtual().name("sj-resume-" + g.port()).start(() -> serve(opened));
        }
        users++;
        waiting.put(token, expected);
        return g.port();
    }

    /** Whether the endpoint is open (a delegation waits for its new owner). */
    synchronized boolean isOpen() {
        return group != null;
    }

    /**
     * The runtime's plan without the transports that cannot listen (a connect-only transport, TLS
     * without key material): the endpoint offers what it can, like a server with default preferences.
     */
    private static TransportManager.Plan listenable(TransportManager.Plan plan) {
        java.util.Set<Transport> candidates = new java.util.LinkedHashSet<>(plan.setup());
        candidates.addAll(plan.session());
        java.util.Set<Transport> usable = new java.util.LinkedHashSet<>();
        for (Transport transport : candidates) {
            try {
                transport.listen(0).close();
                usable.add(transport);
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "resumption endpoint: not offering {0}: {1}", transport.name(),
                        e.getMessage());
            }
        }
        java.util.List<Transport> setup = plan.setup().stream().filter(usable::contains).toList();
        if (setup.isEmpty()) {
            throw new SJIOException("no transport of this runtime can accept the reconnection of a delegated session"
                    + " (session transports " + plan.sessionNames() + ")");
        }
        return new TransportManager.Plan(setup, plan.session().stream().filter(usable::contains).toList(), true);
    }

    /** The host name the new owner should reconnect to (property {@code sessionj.advertisedHost}, else this host). */
    static String advertisedHost() {
        return org.sessionj.runtime.spi.support.SystemSettings.system().value("advertisedHost")
                .orElseGet(() -> LocalHost.NAME);
    }

    private static final class LocalHost {
        static final String NAME = find();

        private static String find() {
            try {
                return InetAddress.getLocalHost().getHostAddress();
            } catch (IOException e) {
                return InetAddress.getLoopbackAddress().getHostAddress();
            }
        }
    }

    /** Forgets {@code token} (its wait ended, with or without a reconnection); see {@link #open}. */
    void forget(UUID token) {
        CompletableFuture<Connection> future = waiting.remove(token);
        if (future != null) {
            future.thenAccept(Connection::close); // a late reconnection is closed, not leaked
        }
        AcceptorGroup idle = null;
        synchronized (this) {
            if (--users == 0) {
                idle = group;
                group = null;
            }
        }
        if (idle != null) {
            idle.close();
        }
    }

    private void serve(AcceptorGroup g) {
        while (true) {
            AcceptorGroup.Accepted accepted;
            try {
                accepted = g.accept(-1);
            } catch (IOException e) {
                return; // closed
            }
            if (accepted != null) {
                Connection oldest = admit(accepted.connection());
                if (oldest != null) {
                    // Without waiting for its output (a plain close may wait for a flush): this is the accept
                    // loop. Its handshake's read fails and it leaves.
                    oldest.closeFailed();
                    long count = dropped.incrementAndGet();
                    if (Long.bitCount(count) == 1) {
                        LOG.log(System.Logger.Level.WARNING, "resumption endpoint on port {0}: dropped the oldest of its"
                                + " {1} connections in their handshake for a new one (sessionj.maxPendingHandshakes);"
                                + " {2} dropped so far (logged the first time and at each power of two)",
                                String.valueOf(g.port()), config.maxPendingHandshakes(), count);
                    }
                }
                Thread.ofVirtual().name("sj-resume-handshake").start(() -> handshake(g, accepted));
            }
        }
    }

    /**
     * Counts {@code connection} among the handshakes in progress; returns the oldest one to drop when that
     * takes them past the limit, else null.
     */
    private Connection admit(Connection connection) {
        synchronized (handshaking) {
            handshaking.addLast(connection);
            return handshaking.size() > config.maxPendingHandshakes() ? handshaking.pollFirst() : null;
        }
    }

    /** Connections in their handshake on the endpoint now (tests). */
    int handshaking() {
        synchronized (handshaking) {
            return handshaking.size();
        }
    }

    private void handshake(AcceptorGroup g, AcceptorGroup.Accepted accepted) {
        try {
            Initiation.accept(accepted, g.offers(), g.id(), config, this::answer);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "refused a reconnection: {0}", e.getMessage());
        } finally {
            synchronized (handshaking) {
                handshaking.remove(accepted.connection()); // by identity: connections do not override equals
            }
        }
    }

    /** Answers a RESUME: hands the connection to the waiting peer, or refuses an unknown token. */
    private Boolean answer(Connection connection, Frame in, Frame prefix) {
        if (in.readableBytes() < 17 || in.readByte() != Tags.RESUME) {
            Initiation.reject(connection, prefix, Initiation.REFUSED,
                    "this is a resumption endpoint: it accepts only reconnections of delegated sessions");
            return Boolean.FALSE;
        }
        UUID token = new UUID(in.readLong(), in.readLong());
        CompletableFuture<Connection> future = waiting.remove(token);
        if (future == null) {
            Initiation.reject(connection, prefix, Initiation.REFUSED,
                    "no delegated session waits for this token here (its peer gave up waiting, or it was used already)");
            return Boolean.FALSE;
        }
        try {
            Initiation.acceptOpening(connection, prefix);
        } catch (IOException e) {
            connection.close();
            future.completeExceptionally(e);
            return Boolean.FALSE;
        }
        future.complete(connection);
        return Boolean.TRUE;
    }

    @Override
    public synchronized void close() {
        AcceptorGroup g = group;
        if (g != null) {
            g.close();
        }
    }
}
