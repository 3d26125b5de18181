package org.sessionj.examples.chat;

import java.time.Duration;
import java.util.Objects;
import org.sessionj.runtime.TransportPreferences;

/**
 * How a chat server runs.
 *
 * @param port the session port (0: a free one)
 * @param advertisedHost the host name or address clients reach this server at (it goes into the
 *        services the server passes)
 * @param transports the server's setup and session transports (empty lists: the runtime's)
 * @param maxUsers how many clients may be connected at once
 * @param floodBurst how many messages a client may send at once before flood control
 * @param floodPerSecond how many messages per second a client may send in the long run
 * @param httpPort a second session port served by an HTTP server of the chat server's own, for clients
 *        that may only speak HTTP (0: a free one; -1: none)
 * @param maxPerAddress how many sessions clients from one address may hold at once (a transport that does
 *        not say where its peer is, in-JVM or http, is not counted); more are refused with the reason
 * @param joinTimeout how long a client may stay in the room without joining the channel: past it, it is
 *        dropped, so that clients that never join cannot keep the room full (hostile18 H8)
 */
public record ChatServerSettings(int port, String advertisedHost, TransportPreferences transports, int maxUsers,
        int floodBurst, int floodPerSecond, int httpPort, int maxPerAddress, Duration joinTimeout) {
    /** Sessions one address may hold by default: a household or a small office behind one NAT. */
    public static final int DEFAULT_MAX_PER_ADDRESS = 16;
    /** How long a client may take to join by default (the event stream's own request timeout). */
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(30);

    /** Validates the settings. */
    public ChatServerSettings {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        if (httpPort < -1 || httpPort > 65535) {
            throw new IllegalArgumentException("the HTTP port must be 0..65535 (or -1 for none), got " + httpPort);
        }
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(transports, "transports");
        if (maxUsers < 1 || floodBurst < 1 || floodPerSecond < 1 || maxPerAddress < 1) {
            throw new IllegalArgumentException("maxUsers, floodBurst, floodPerSecond and maxPerAddress must be positive");
        }
        Objects.requireNonNull(joinTimeout, "joinTimeout");
        if (joinTimeout.isNegative() || joinTimeout.isZero()) {
            throw new IllegalArgumentException("the join timeout must be positive, got " + joinTimeout);
        }
    }

    /**
     * Defaults: up to 1000 users, 20 messages at once and 10 a second each, 16 sessions per address, 30 s
     * to join.
     */
    public static ChatServerSettings of(int port, String advertisedHost, TransportPreferences transports) {
        return new ChatServerSettings(port, advertisedHost, transports, 1000, 20, 10, -1, DEFAULT_MAX_PER_ADDRESS,
                DEFAULT_JOIN_TIMEOUT);
    }

    /** These settings with an HTTP port ({@code 0}: a free one). */
    public ChatServerSettings withHttpPort(int port) {
        return new ChatServerSettings(this.port, advertisedHost, transports, maxUsers, floodBurst, floodPerSecond, port,
                maxPerAddress, joinTimeout);
    }

    /** These settings with other bounds on the room: its size, sessions per address, and the time to join. */
    public ChatServerSettings withLimits(int maxUsers, int maxPerAddress, Duration joinTimeout) {
        return new ChatServerSettings(port, advertisedHost, transports, maxUsers, floodBurst, floodPerSecond, httpPort,
                maxPerAddress, joinTimeout);
    }
}
