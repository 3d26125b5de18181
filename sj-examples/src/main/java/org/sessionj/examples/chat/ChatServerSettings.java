package org.sessionj.examples.chat;

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
 */
public record ChatServerSettings(int port, String advertisedHost, TransportPreferences transports, int maxUsers,
        int floodBurst, int floodPerSecond, int httpPort) {

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
        if (maxUsers < 1 || floodBurst < 1 || floodPerSecond < 1) {
            throw new IllegalArgumentException("maxUsers, floodBurst and floodPerSecond must be positive");
        }
    }

    /** Defaults: up to 1000 users, 20 messages at once and 10 a second each. */
    public static ChatServerSettings of(int port, String advertisedHost, TransportPreferences transports) {
        return new ChatServerSettings(port, advertisedHost, transports, 1000, 20, 10, -1);
    }

    /** These settings with an HTTP port ({@code 0}: a free one). */
    public ChatServerSettings withHttpPort(int port) {
        return new ChatServerSettings(this.port, advertisedHost, transports, maxUsers, floodBurst, floodPerSecond, port);
    }
}
