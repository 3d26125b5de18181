package org.sessionj.transport.tls;

import com.google.auto.service.AutoService;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.transport.netty.internal.LocalPorts;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.transport.netty.internal.NettyTransportSupport;

/**
 * The TLS transport ({@code "tls"}): the TCP transport's framing and plumbing under a Netty
 * {@link io.netty.handler.ssl.SslHandler} (JDK provider). Connections implement
 * {@link org.sessionj.runtime.spi.AuthenticatedConnection}: the peer's certificate subject.
 *
 * <p>A handshake that fails (untrusted or wrong certificate, a host name the certificate does not
 * name, a missing client certificate the server requires) fails {@code connect} with an
 * {@link IOException} naming the reason; nothing is ever sent in plaintext. See {@link TlsConfig}
 * for the configuration and the hostname verification policy.
 */
@AutoService(Transport.class)
public final class TlsTransport implements Transport {
    /** The configuration name of this transport. */
    public static final String NAME = "tls";

    private final TlsConfig explicitConfig;
    private final NettyTransportSupport support;
    private volatile TlsConfig config;
    private volatile Contexts contexts;

    /**
     * A TLS transport configured by the {@code sessionj.tls.*} system properties (read on first use; see
     * {@link TlsConfig#fromSystemProperties()}). This is how {@link java.util.ServiceLoader} makes it.
     */
    public TlsTransport() {
        this(null, NettySettings.fromSystemProperties());
    }

    /** A TLS transport with an explicit configuration. */
    public TlsTransport(TlsConfig config) {
        this(config, NettySettings.fromSystemProperties());
    }

    /** A TLS transport with an explicit configuration and Netty settings. */
    public TlsTransport(TlsConfig config, NettySettings settings) {
        this.explicitConfig = config;
        this.support = new NettyTransportSupport(NAME, settings,
                new TlsChannelSetup(settings, () -> contexts().server(), () -> contexts().client()));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** TLS needs key material and is chosen only when a configuration names it. */
    @Override
    public boolean enabledByDefault() {
        return false;
    }

    /** Session ports are TCP ports, shared with the other TCP-based transports. */
    @Override
    public String portSpace() {
        return "tcp-port";
    }

    @Override
    public ConnectionAcceptor listen(int port) throws IOException {
        // Checked before any context is built: every server socket of a runtime offers the session
        // transports it has, tls among them, and without key material this refusal is the usual
        // answer. Building the client context first loaded the JDK's whole trust store (~150
        // certificates parsed, some 0.2 s of a fresh JVM's start-up and far more under load) in
        // every JVM that opened a server socket, for a transport it could not offer.
        if (config().keyMaterial().isEmpty()) {
            throw new IOException("the TLS transport needs key material to listen: set sessionj.tls.cert and sessionj.tls.key "
                    + "(PEM files; ./sj tls keygen makes a development pair) or give it a TlsConfig with keyMaterial");
        }
        loadContexts();                                     // a bad configuration fails here, not at the first handshake
        return support.listen(port);
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        loadContexts();
        return support.connect(host, port, timeoutNanos);
    }

    @Override
    public boolean canReach(String host, int port) {
        return LocalPorts.canReach(host, port);
    }

    private Contexts contexts() {
        try {
            return loadContexts();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private TlsConfig config() throws IOException {
        TlsConfig c = config;
        if (c == null) {
            c = explicitConfig != null ? explicitConfig : TlsConfig.fromSystemProperties();
            config = c;
        }
        return c;
    }

    private Contexts loadContexts() throws IOException {
        Contexts c = contexts;
        if (c == null) {
            TlsConfig conf = config();
            c = new Contexts(TlsContexts.sessionServer(conf), TlsContexts.sessionClient(conf));
            contexts = c;
        }
        return c;
    }

    /** Whether this transport has built its TLS contexts (for tests: listening without key material must not). */
    boolean contextsBuilt() {
        return contexts != null;
    }

    private record Contexts(SslContext server, SslContext client) {
    }
}
