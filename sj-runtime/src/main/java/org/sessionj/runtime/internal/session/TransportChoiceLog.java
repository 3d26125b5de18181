package org.sessionj.runtime.internal.session;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.runtime.spi.support.LazyLogger;

/**
 * Says which transport sessions run over: the first time a protocol's sessions run over a transport on
 * one side (so a log shows "KvClientSide: requested sessions run over tcp" once, not per session), at
 * INFO for a transport that leaves this JVM (ipc, tcp, tls, http, the relay) and at DEBUG for the
 * in-JVM one; every session at DEBUG. Negotiation picks the transport per session
 * (docs/negotiation.md); without this line a user cannot tell whether the peers met in memory, over
 * ipc, tcp or a relay.
 *
 * <p>Why the in-JVM choice is not said at INFO: two ends in one JVM always meet in memory, so it is
 * not news, and the line itself was the largest single cost of a fresh JVM's first session (46–67 ms
 * of CPU: the logging backend's start, its handler and formatter; issue 15, cold start). With no
 * INFO line due and logging not configured, the logger is not even created ({@link LazyLogger}).
 *
 * <p>The logger is {@code org.sessionj.runtime.transport} (System.Logger: java.util.logging by
 * default, SLF4J or Log4j when their System.LoggerFinder bridge is on the class path).
 */
final class TransportChoiceLog {
    /** The logger's name, for configuring it. */
    static final String LOGGER = "org.sessionj.runtime.transport";

    /** Package-private for tests (which configure java.util.logging in code, then create it). */
    static final System.Logger LOG = LazyLogger.of(LOGGER);
    /**
     * What was said at INFO already. Keyed by a record of the three strings, not by their
     * concatenation, and looked up before it is added: a session set-up then costs a lookup with hashes
     * its strings already cache, not a new string and a map insertion (measured: 2–3 % of an in-JVM
     * set-up's CPU, issue 15).
     */
    private static final Set<Announced> ANNOUNCED = ConcurrentHashMap.newKeySet();

    private record Announced(String side, String protocol, String transport) {
        // Written out: a record's generated equals and hashCode are linked through invokedynamic on first
        // use, milliseconds in a fresh JVM's first session (issue 15, cold start).
        @Override
        public boolean equals(Object o) {
            return o instanceof Announced that && side.equals(that.side) && protocol.equals(that.protocol)
                    && transport.equals(that.transport);
        }

        @Override
        public int hashCode() {
            return (side.hashCode() * 31 + protocol.hashCode()) * 31 + transport.hashCode();
        }
    }

    private TransportChoiceLog() {
    }

    /** A session of {@code protocol} this side requested from {@code host:port} runs over {@code connection}. */
    static void requested(String protocol, String host, int port, Connection connection) {
        log("requested", protocol, connection, host, port);
    }

    /** A session of {@code protocol} this side accepted runs over {@code connection}. */
    static void accepted(String protocol, Connection connection) {
        log("accepted", protocol, connection, null, 0);
    }

    private static void log(String side, String protocol, Connection connection, String host, int port) {
        String transport = connection.transportName();
        // The peer is in this JVM exactly when the connection can pass references (LocalConnection).
        boolean inJvm = connection.capability(LocalConnection.class) != null;
        Level once = inJvm ? Level.DEBUG : Level.INFO;
        if (!LOG.isLoggable(once) && !LOG.isLoggable(Level.DEBUG)) {
            return; // nothing due: no key, no lookup (and, in-JVM without logging configured, no logger)
        }
        Announced key = new Announced(side, protocol, transport);
        boolean news = !ANNOUNCED.contains(key) && ANNOUNCED.add(key);
        if (news && LOG.isLoggable(once)) {
            String first = host == null ? "" : " (first one: with " + host + ":" + port + ")";
            LOG.log(once, protocol + ": " + side + " sessions run over " + transport + first
                    + "; said once per protocol and transport, every session at DEBUG");
        } else if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(Level.DEBUG, protocol + ": " + side + " session over " + transport + " (" + connection + ")");
        }
    }
}
