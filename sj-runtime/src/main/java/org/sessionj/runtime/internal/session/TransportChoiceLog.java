package org.sessionj.runtime.internal.session;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.runtime.spi.Connection;

/**
 * Says which transport sessions run over: at INFO the first time a protocol's sessions run over a
 * transport on one side (so a log shows "KvClientSide: requested sessions run over tcp" once, not per
 * session), at DEBUG every time. Negotiation picks the transport per session (docs/negotiation.md);
 * without this line a user cannot tell whether the peers met in memory, over ipc, tcp or a relay.
 * The logger is {@code org.sessionj.runtime.transport} (System.Logger: java.util.logging by default,
 * SLF4J or Log4j when their System.LoggerFinder bridge is on the class path).
 */
final class TransportChoiceLog {
    /** The logger's name, for configuring it. */
    static final String LOGGER = "org.sessionj.runtime.transport";

    private static final System.Logger LOG = System.getLogger(LOGGER);
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
        Announced key = new Announced(side, protocol, transport);
        boolean news = !ANNOUNCED.contains(key) && ANNOUNCED.add(key);
        if (news) {
            String first = host == null ? "" : " (first one: with " + host + ":" + port + ")";
            LOG.log(Level.INFO, () -> protocol + ": " + side + " sessions run over " + transport + first
                    + "; said once per protocol and transport, every session at DEBUG");
        } else if (LOG.isLoggable(Level.DEBUG)) { // not even the message's lambda per session otherwise
            LOG.log(Level.DEBUG, protocol + ": " + side + " session over " + transport + " (" + connection + ")");
        }
    }
}
