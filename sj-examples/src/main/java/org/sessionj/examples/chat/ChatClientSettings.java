package org.sessionj.examples.chat;

import java.time.Duration;
import java.util.Objects;
import org.sessionj.runtime.TransportPreferences;

/**
 * How a chat client runs.
 *
 * @param name the user name asked for (the server may change it to keep names unique)
 * @param serverHost the server's host
 * @param serverPort the server's session port
 * @param advertisedHost the host name or address the other clients reach this one at, for the private
 *        conversations it opens
 * @param privateTransports the session transports this client demands for private conversations it
 *        opens (e.g. only {@code tls}); empty lists: the runtime's
 * @param acceptInvitations whether invitations to private conversations are accepted
 * @param reconnectDelay the first wait before reconnecting to a server that went away (doubled up to
 *        {@code maxReconnectDelay})
 * @param maxReconnectDelay the longest wait between reconnection attempts
 * @param inviteTimeout how long an invitation waits for the invited client to connect
 * @param serverTransports the transports of the sessions with the server (the client's and its event
 *        stream), e.g. only {@code http} for a client behind a firewall; empty lists: the runtime's
 */
public record ChatClientSettings(String name, String serverHost, int serverPort, String advertisedHost,
        TransportPreferences privateTransports, boolean acceptInvitations, Duration reconnectDelay,
        Duration maxReconnectDelay, Duration inviteTimeout, TransportPreferences serverTransports) {

    /** Validates the settings. */
    public ChatClientSettings {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(serverHost, "serverHost");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(privateTransports, "privateTransports");
        Objects.requireNonNull(serverTransports, "serverTransports");
        if (serverPort < 1 || serverPort > 65535) {
            throw new IllegalArgumentException("server port must be 1..65535, got " + serverPort);
        }
        if (reconnectDelay.isNegative() || reconnectDelay.isZero() || maxReconnectDelay.compareTo(reconnectDelay) < 0
                || inviteTimeout.isNegative() || inviteTimeout.isZero()) {
            throw new IllegalArgumentException("delays must be positive, the longest reconnection delay at least the first");
        }
    }

    /** Defaults: invitations accepted, reconnection after 1 s up to 16 s, invitations wait 30 s. */
    public static ChatClientSettings of(String name, String serverHost, int serverPort, String advertisedHost) {
        return new ChatClientSettings(name, serverHost, serverPort, advertisedHost, TransportPreferences.unset(), true,
                Duration.ofSeconds(1), Duration.ofSeconds(16), Duration.ofSeconds(30), TransportPreferences.unset());
    }

    /** These settings, demanding {@code transports} (e.g. {@code "tls"}) for the private conversations this client opens. */
    public ChatClientSettings withPrivateTransports(String... transports) {
        return new ChatClientSettings(name, serverHost, serverPort, advertisedHost, TransportPreferences.session(transports),
                acceptInvitations, reconnectDelay, maxReconnectDelay, inviteTimeout, serverTransports);
    }

    /** These settings, with the sessions with the server on {@code transports} (e.g. only http). */
    public ChatClientSettings withServerTransports(TransportPreferences transports) {
        return new ChatClientSettings(name, serverHost, serverPort, advertisedHost, privateTransports, acceptInvitations,
                reconnectDelay, maxReconnectDelay, inviteTimeout, transports);
    }

    /** These settings with other reconnection delays. */
    public ChatClientSettings withReconnectDelays(Duration first, Duration longest) {
        return new ChatClientSettings(name, serverHost, serverPort, advertisedHost, privateTransports, acceptInvitations,
                first, longest, inviteTimeout, serverTransports);
    }

    /** These settings, accepting invitations or not. */
    public ChatClientSettings withInvitations(boolean accept) {
        return new ChatClientSettings(name, serverHost, serverPort, advertisedHost, privateTransports, accept,
                reconnectDelay, maxReconnectDelay, inviteTimeout, serverTransports);
    }

    /** These settings with another invitation timeout. */
    public ChatClientSettings withInviteTimeout(Duration timeout) {
        return new ChatClientSettings(name, serverHost, serverPort, advertisedHost, privateTransports, acceptInvitations,
                reconnectDelay, maxReconnectDelay, timeout, serverTransports);
    }
}
