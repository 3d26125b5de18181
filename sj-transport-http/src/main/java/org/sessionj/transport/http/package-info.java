/**
 * The {@code http} and {@code https} transports: session frames carried in HTTP/1.1 (WebSocket where
 * the path allows the upgrade, long polling otherwise), directly to a peer's HTTP port or through a
 * relay ({@link org.sessionj.transport.http.relay.HttpRelay}) that both peers reach with outbound
 * requests only. Configured with {@link org.sessionj.transport.http.HttpConfig}; the wire mapping is
 * in docs/http-transport.md.
 */
package org.sessionj.transport.http;
