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
 */
public record RelayLimits(int maxConnections, int maxSessions, int maxListeners, int maxNamesPerListener,
        int maxUnpairedPerListener, int pairingMillis, long bufferBytes, int requestMillis) {

    /** Checks that every limit is positive. */
    public RelayLimits {
        if (maxConnections <= 0 || maxSessions <= 0 || maxListeners <= 0 || maxNamesPerListener <= 0
                || maxUnpairedPerListener <= 0 || pairingMillis <= 0 || bufferBytes <= 0 || requestMillis <= 0) {
            throw new IllegalArgumentException("every relay limit must be positive: " + this);
        }
    }

    /**
     * The defaults: 4096 connections, 1024 sessions, 256 servers of up to 64 names each with up to 64
     * waiting connections, 10 s to pair, 256 MiB of buffers, 30 s per request.
     */
    public static RelayLimits defaults() {
        return new RelayLimits(4096, 1024, 256, 64, 64, 10_000, 256L << 20, 30_000);
    }

    /** These limits with another session count and buffer budget. */
    public RelayLimits withSessions(int sessions, long buffer) {
        return new RelayLimits(maxConnections, sessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener,
                pairingMillis, buffer, requestMillis);
    }

    /** These limits with another pairing time and request deadline. */
    public RelayLimits withTimes(int pairing, int request) {
        return new RelayLimits(maxConnections, maxSessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener,
                pairing, bufferBytes, request);
    }

    /** These limits with another connection cap. */
    public RelayLimits withConnections(int connections) {
        return new RelayLimits(connections, maxSessions, maxListeners, maxNamesPerListener, maxUnpairedPerListener,
                pairingMillis, bufferBytes, requestMillis);
    }
}
