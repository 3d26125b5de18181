package org.sessionj.transport.http.internal;

import io.netty.handler.ssl.SslContext;

/**
 * Where a client's HTTP requests go (the peer's HTTP port, or the relay) and how.
 *
 * @param host the host name or address
 * @param port the TCP port
 * @param ssl the client TLS context for https, or null for plain http
 * @param settings the tunables
 */
public record Endpoint(String host, int port, SslContext ssl, HttpSettings settings) {

    /** The value of the Host header. */
    public String authority() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** {@code http} or {@code https}, for messages. */
    public String scheme() {
        return ssl == null ? "http" : "https";
    }

    @Override
    public String toString() {
        return scheme() + "://" + authority();
    }
}
