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
        if (key == null) {
            return null;
        }
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
        return build(builder, "server");
    }

    /**
     * The client context: the trusted certificates (none: the JDK's trust store), this side's key
     * material if any (for servers that ask for it), and HTTPS hostname verification unless switched off.
     *
     * @throws IOException if the context cannot be built from the configuration
     */
    public static SslContext client(TlsConfig config) throws IOException {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(SslProvider.JDK)
                .endpointIdentificationAlgorithm(config.verifyHostname() ? "HTTPS" : null);
        config.keyMaterial().ifPresent(key -> builder.keyManager(key.privateKey(), key.chain()));
        if (!config.trustedCertificates().isEmpty()) {
            builder.trustManager(config.trustedCertificates());
        }
        return build(builder, "client");
    }

    /** The reason a TLS failure gives, phrased for the side that sees it (untrusted, wrong host, refused ...). */
    public static String reason(Throwable cause) {
        return TlsChannelSetup.reason(cause);
    }

    private static SslContext build(SslContextBuilder builder, String side) throws IOException {
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IOException("cannot set up the TLS " + side + " context: " + e.getMessage(), e);
        }
    }
}
