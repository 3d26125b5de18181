package org.sessionj.transport.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.transport.http.HttpConfig.HostPort;
import org.sessionj.transport.http.internal.DirectAcceptor;
import org.sessionj.transport.http.internal.Endpoint;
import org.sessionj.transport.http.internal.HttpClientChannel;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.RelayAcceptor;
import org.sessionj.transport.http.internal.TunnelConnection;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.netty.internal.LocalPorts;

/**
 * What the http and https transports share: direct mode (an HTTP server on the session port's HTTP
 * port; requesters open connections on it) and relay mode (both sides are clients of a relay), chosen
 * per service and per server socket by {@link HttpConfig}; WebSocket where the path allows the
 * upgrade, long polling where it does not. The two differ only in TLS.
 */
abstract class TunnelTransport implements Transport {
    private final String name;
    private final HttpConfig explicitConfig;

    TunnelTransport(String name, HttpConfig config) {
        this.name = name;
        this.explicitConfig = config;
    }

    /** The configuration in force (the system properties' unless one was given). */
    public HttpConfig config() {
        return explicitConfig != null ? explicitConfig : HttpConfig.fromSystemProperties();
    }

    /** The client TLS context (https), or null (http). */
    abstract SslContext clientSsl() throws IOException;

    /** The server TLS context for a direct acceptor (https; fails without key material), or null (http). */
    abstract SslContext serverSsl() throws IOException;

    @Override
    public String name() {
        return name;
    }

    /**
     * Tunnels are a detour: the default lists try them after the direct transports (setup: tcp
     * first, then the relay, as paper 000 §5 orders them).
     */
    @Override
    public boolean indirect() {
        return true;
    }

    /**
     * Relay mode maps session ports to names at the relay; direct mode to TCP ports (the same ones as
     * tcp and tls with the default offset 0, so then only one of them can serve a session port).
     */
    @Override
    public String portSpace() {
        HttpConfig config = config();
        if (config.relay().isPresent()) {
            return "http-relay";
        }
        return config.portOffset() == 0 ? "tcp-port" : "http-port";
    }

    @Override
    public ConnectionAcceptor listen(int port) throws IOException {
        if (port < 0 || port > 65535) {
            throw new IOException("session port " + port + " is not a port (expected 0..65535)");
        }
        HttpConfig config = config();
        HttpSettings settings = config.settings();
        Optional<HostPort> relay = config.relayForServer(port);
        if (relay.isPresent()) {
            // Registering is bounded like every request to the relay: it gives up when the relay has been
            // unreachable for the vanish time (15 s). It was 10 s for one attempt, which a relay process started
            // just before, cold, on a loaded machine, exceeded with its first TLS handshake.
            return RelayAcceptor.listen(name, endpoint(relay.get(), settings), port, config.serverNames(relay.get()),
                    TimeUnit.MILLISECONDS.toNanos(settings.vanishMillis()), config.relayKey().orElse(null));
        }
        return DirectAcceptor.listen(name, settings, port, config.portOffset(), serverSsl());
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        if (port < 1 || port > 65535) {
            throw new IOException("session port " + port + " is not a port (expected 1..65535)");
        }
        HttpConfig config = config();
        HttpSettings settings = config.settings();
        Optional<HostPort> relay = config.relayForService(host, port);
        if (relay.isPresent()) {
            String target = HttpConfig.target(host, port);
            return TunnelConnection.open(name, endpoint(relay.get(), settings),
                    Wire.CONNECT + "?target=" + URLEncoder.encode(target, StandardCharsets.UTF_8),
                    "via relay " + relay.get() + " to " + target, timeoutNanos);
        }
        int httpPort = port + config.portOffset();
        return TunnelConnection.open(name, new Endpoint(host, httpPort, clientSsl(), settings), Wire.OPEN,
                "to " + HttpConfig.target(host, httpPort), timeoutNanos);
    }

    /**
     * Direct mode: whether something listens on the HTTP port (as for tcp). Relay mode: whether the
     * relay has a server registered for {@code host:port}, asked within {@code sessionj.http.vanishMillis}
     * (the bound of every request to the relay).
     */
    @Override
    public boolean canReach(String host, int port) {
        return canReach(host, port, -1);
    }

    /**
     * {@link #canReach(String, int)} within {@code timeoutNanos} (negative: {@code sessionj.http.vanishMillis};
     * never more than that): the requester's set-up passes the time it gives this attempt. A relay that
     * refuses the connection or answers 404 is a no at once; one that has not answered when the time is
     * up is a no too (its connect would not get through in the time left either).
     */
    @Override
    public boolean canReach(String host, int port, long timeoutNanos) {
        HttpConfig config = config();
        Optional<HostPort> relay = config.relayForService(host, port);
        if (relay.isEmpty()) {
            return LocalPorts.canReach(host, port + config.portOffset());
        }
        HttpSettings settings = config.settings();
        long millis = checkMillis(timeoutNanos, settings.vanishMillis());
        HttpClientChannel channel;
        try {
            channel = new HttpClientChannel(endpoint(relay.get(), settings));
        } catch (IOException e) {
            return false;
        }
        try {
            // The channel's own deadline answers first; the wait's is a backstop a little later.
            FullHttpResponse response = channel.send(channel.request(HttpMethod.GET, Wire.TARGET + "?name="
                    + URLEncoder.encode(HttpConfig.target(host, port), StandardCharsets.UTF_8), null),
                    millis).get(millis + 500, TimeUnit.MILLISECONDS);
            try {
                return response.status().code() == 200;
            } finally {
                response.release();
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return false;
        } finally {
            channel.close();
        }
    }

    /**
     * How long a relay check waits, in ms: {@code timeoutNanos} when it is set, never more than
     * {@code vanishMillis}, at least 1. Before, it was a fixed 2 s, which a cold requester's first
     * request to the relay exceeded on a loaded machine (FirewallRealTest): the relay was up and the
     * server registered, but the requester gave up on it.
     */
    static long checkMillis(long timeoutNanos, int vanishMillis) {
        if (timeoutNanos < 0) {
            return vanishMillis;
        }
        return Math.max(1, Math.min(vanishMillis, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
    }

    private Endpoint endpoint(HostPort relay, HttpSettings settings) throws IOException {
        return new Endpoint(relay.host(), relay.port(), clientSsl(), settings);
    }
}
