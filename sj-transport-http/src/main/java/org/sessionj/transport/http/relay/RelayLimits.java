package org.sessionj.transport.http.relay;

/**
 * What the relay allows any client, so that nothing a client sends (or fails to send) makes it grow
 * without bound.
 *
 * @param maxConnections open TCP connections at most; more are closed at once
 * @param maxSessions relayed connections at most (paired or waiting); more are answered 503
 * @param maxListeners registered servers at most
 * @param maxNamesPerListener names (host:port) one server may register
 * @param maxUnpairedPerListener connections waiting for one server to take them
 * @param pairingMillis how long a server has to take a connection made to it
 * @param bufferBytes the relay's buffered bytes (all directions of all connections) at most; an upload
 *        past it is answered 503 (the client retries)
 * @param requestMillis a request must arrive whole within this (else 408, connection dropped)
 * @param maxListenersPerSource registered servers one source address may have at once; more are answered 429
 * @param maxSessionsPerSource relayed connections one source address may have made and not ended; more are
 *        answered 429 (behind a proxy every client has the proxy's address: raise it there)
 * @param maxPendingTlsHandshakes connections in their TLS handshake at once (over HTTPS; a quarter of the
 *        connections by default): a new one reads nothing until one ends, and at the limit the oldest that has
 *        not finished within 5 s is dropped for it (docs/http-transport.md, Bounds)
 */
public record RelayLimits(int maxConnections, int maxSessions, int maxListeners, int maxNamesPerListener,
        int maxUnpairedPerListener, int pairingMillis, long bufferBytes, int requestMillis, int maxListenersPerSource,
        int maxSessionsPerSource, int maxPendingTlsHandshakes) {

    /** The default per-source caps: a sixteenth of the servers, a quarter of the sessions. */
    public static final int DEFAULT_LISTENERS_PER_SOURCE = 16;
    /** The default cap on one source's relayed connections. */
    public static final int DEFAULT_SESSIONS_PER_SOURCE = 256;

    /** Checks that every limit is positive. */
    public RelayLimits {
        if (maxConnections <= 0 || maxSessions <= 0 || maxListeners <= 0 || maxNamesPerListener <= 0
                || maxUnpairedPerListener <= 0 || pairingMillis <= 0 || bufferBytes <= 0 || requestMillis <= 0
                || maxListenersPerSource <= 0 || maxSessionsPerSource <= 0 || maxPendingTlsHandshakes <= 0) {
            throw new IllegalArgumentException("every relay limit must be positive: " + this);
        }
    }

    /** Limits with the default pending TLS handshakes: a quarter of the connections. */
    public RelayLimits(int maxConnections, int maxSessions, int maxListeners, int maxNamesPerListener,
            int maxUnpairedPerListener, int pairingMillis, long bufferBytes, int requestMillis, int maxListenersPerSource,
            int maxSessionsPerSource) {
        this(maxConnections, maxSessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener, pairingMillis,
                bufferBytes, requestMillis, maxListenersPerSource, maxSessionsPerSource, pendingTlsFor(maxConnections));
    }

    /** The default pending TLS handshakes for {@code maxConnections}: a quarter of them, at least 1. */
    private static int pendingTlsFor(int maxConnections) {
        return Math.max(1, maxConnections / 4);
    }

    /** Limits with the default per-source caps (at most the totals). */
    public RelayLimits(int maxConnections, int maxSessions, int maxListeners, int maxNamesPerListener,
            int maxUnpairedPerListener, int pairingMillis, long bufferBytes, int requestMillis) {
        this(maxConnections, maxSessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener, pairingMillis,
                bufferBytes, requestMillis, Math.min(DEFAULT_LISTENERS_PER_SOURCE, maxListeners),
                Math.min(DEFAULT_SESSIONS_PER_SOURCE, maxSessions));
    }

    /**
     * The defaults: 4096 connections, 1024 sessions, 256 servers of up to 64 names each with up to 64
     * waiting connections, 10 s to pair, 256 MiB of buffers, 30 s per request; per source address 16
     * servers and 256 sessions; 1024 connections in their TLS handshake at once.
     */
    public static RelayLimits defaults() {
        return new RelayLimits(4096, 1024, 256, 64, 64, 10_000, 256L << 20, 30_000);
    }

    /** These limits with other per-source caps. */
    public RelayLimits withPerSource(int listeners, int sessions) {
        return new RelayLimits(maxConnections, maxSessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener,
                pairingMillis, bufferBytes, requestMillis, listeners, sessions, maxPendingTlsHandshakes);
    }

    /** These limits with another session count and buffer budget. */
    public RelayLimits withSessions(int sessions, long buffer) {
        return new RelayLimits(maxConnections, sessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener,
                pairingMillis, buffer, requestMillis, maxListenersPerSource, Math.min(maxSessionsPerSource, sessions),
                maxPendingTlsHandshakes);
    }

    /** These limits with another pairing time and request deadline. */
    public RelayLimits withTimes(int pairing, int request) {
        return new RelayLimits(maxConnections, maxSessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener,
                pairing, bufferBytes, request, maxListenersPerSource, maxSessionsPerSource, maxPendingTlsHandshakes);
    }

    /**
     * These limits with another connection cap, and a quarter of it as the pending TLS handshakes (call
     * {@link #withPendingTlsHandshakes} after it for another).
     */
    public RelayLimits withConnections(int connections) {
        return new RelayLimits(connections, maxSessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener,
                pairingMillis, bufferBytes, requestMillis, maxListenersPerSource, maxSessionsPerSource,
                pendingTlsFor(connections));
    }

    /** These limits with another number of connections in their TLS handshake at once. */
    public RelayLimits withPendingTlsHandshakes(int handshakes) {
        return new RelayLimits(maxConnections, maxSessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener,
                pairingMillis, bufferBytes, requestMillis, maxListenersPerSource, maxSessionsPerSource, handshakes);
    }
}
