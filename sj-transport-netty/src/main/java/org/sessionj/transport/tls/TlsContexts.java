package org.sessionj.transport.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import javax.net.ssl.SSLException;

/**
 * Netty TLS contexts for a {@link TlsConfig}: what the {@code tls} transport puts under its frames, and
 * what any other transport that speaks TLS (the {@code https} transport) uses, so that keys, trust,
 * client authentication and hostname verification mean the same everywhere.
 */
public final class TlsContexts {
    private TlsContexts() {
    }

    /**
     * The server context: this side's key material, the configured client authentication, and the
     * trusted certificates (for client certificates); {@code null} when there is no key material.
     *
     * @throws IOException if the context cannot be built from the configuration
     */
    public static SslContext server(TlsConfig config) throws IOException {
        KeyMaterial key = config.keyMaterial().orElse(null);
        return key == null ? null : build(serverBuilder(config, key), "server");
    }

    private static SslContextBuilder serverBuilder(TlsConfig config, KeyMaterial key) {
        SslContextBuilder builder = SslContextBuilder.forServer(key.privateKey(), key.chain())
                .sslProvider(SslProvider.JDK)
                .clientAuth(switch (config.clientAuth()) {
                    case NONE -> io.netty.handler.ssl.ClientAuth.NONE;
                    case OPTIONAL -> io.netty.handler.ssl.ClientAuth.OPTIONAL;
                    case REQUIRE -> io.netty.handler.ssl.ClientAuth.REQUIRE;
                });
        if (!config.trustedCertificates().isEmpty()) {
            builder.trustManager(config.trustedCertificates());
        }
        return builder;
    }

    /**
     * The client context: the trusted certificates (none: the JDK's trust store), this side's key
     * material if any (for servers that ask for it), and HTTPS hostname verification unless switched off.
     *
     * @throws IOException if the context cannot be built from the configuration
     */
    public static SslContext client(TlsConfig config) throws IOException {
        return build(clientBuilder(config), "client");
    }

    private static SslContextBuilder clientBuilder(TlsConfig config) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(SslProvider.JDK)
                .endpointIdentificationAlgorithm(config.verifyHostname() ? "HTTPS" : null);
        config.keyMaterial().ifPresent(key -> builder.keyManager(key.privateKey(), key.chain()));
        if (!config.trustedCertificates().isEmpty()) {
            builder.trustManager(config.trustedCertificates());
        }
        return builder;
    }

    /**
     * The server context of the {@code tls} transport, whose peers are SJ runtimes (JDK 21 or newer):
     * {@link #server} restricted to TLS 1.3, which has no renegotiation. Under TLS 1.2 a client could make
     * the server run a full handshake (a key exchange and a signature) as often as it likes on one
     * connection that already counts as served. HTTPS servers keep TLS 1.2 for the proxies in front of them.
     *
     * @throws IOException if the context cannot be built from the configuration
     */
    public static SslContext sessionServer(TlsConfig config) throws IOException {
        KeyMaterial key = config.keyMaterial().orElse(null);
        return key == null ? null : build(serverBuilder(config, key).protocols(SESSION_PROTOCOL), "server");
    }

    /** The client context of the {@code tls} transport: {@link #client} restricted to TLS 1.3 (see {@link #sessionServer}). */
    public static SslContext sessionClient(TlsConfig config) throws IOException {
        return build(clientBuilder(config).protocols(SESSION_PROTOCOL), "client");
    }

    /** The reason a TLS failure gives, phrased for the side that sees it (untrusted, wrong host, refused ...). */
    public static String reason(Throwable cause) {
        return TlsChannelSetup.reason(cause);
    }

    private static final String SESSION_PROTOCOL = "TLSv1.3";

    private static SslContext build(SslContextBuilder builder, String side) throws IOException {
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IOException("cannot set up the TLS " + side + " context: " + e.getMessage(), e);
        }
    }
}
