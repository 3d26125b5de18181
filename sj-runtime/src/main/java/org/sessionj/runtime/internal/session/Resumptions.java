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
 */
public final class Resumptions implements AutoCloseable {
    private static final System.Logger LOG = LazyLogger.of(Resumptions.class.getName());

    private final TransportManager transports;
    private final SJRuntimeConfig config;
    private final Map<UUID, CompletableFuture<Connection>> waiting = new ConcurrentHashMap<>();
    private volatile AcceptorGroup group;

    Resumptions(TransportManager transports, SJRuntimeConfig config) {
        this.transports = transports;
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
            g = transports.listen(listenable(transports.defaults()), 0);
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
                Thread.ofVirtual().name("sj-resume-handshake").start(() -> handshake(g, accepted));
            }
        }
    }

    private void handshake(AcceptorGroup g, AcceptorGroup.Accepted accepted) {
        try {
            Initiation.accept(accepted, g.offers(), g.id(), config, this::answer);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "refused a reconnection: {0}", e.getMessage());
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
