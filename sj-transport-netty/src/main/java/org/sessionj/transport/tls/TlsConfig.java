package org.sessionj.transport.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * What the TLS transport authenticates with and whom it trusts.
 *
 * <ul>
 *   <li><b>key material</b>: this side's key and certificate chain; needed to listen, and to connect
 *       to a server that requires client authentication.</li>
 *   <li><b>trusted certificates</b>: the trust anchors for the peer's chain (a self-signed development
 *       certificate is its own anchor); none means the JDK's default trust store.</li>
 *   <li><b>client authentication</b>: whether a server asks clients for certificates.</li>
 *   <li><b>hostname verification</b> (on by default): a client checks that the server's certificate
 *       names the host it connected to (DNS or IP subject alternative name, as HTTPS does).
 *       Development certificates from {@link Certificates#selfSigned} name {@code localhost},
 *       {@code 127.0.0.1} and {@code ::1} plus whatever else is asked for. Turning it off means any
 *       trusted certificate is accepted for any host: only for closed clusters whose certificates
 *       cannot name their hosts.</li>
 * </ul>
 *
 * <p>Instances are immutable; build them with {@link #builder()} or read them from system properties
 * with {@link #fromSystemProperties()}.
 */
public final class TlsConfig {
    /** Whether a server asks for, or insists on, client certificates. */
    public enum ClientAuth {
        /** Clients are not asked for a certificate. */
        NONE,
        /** Clients are asked; a client without one is let in unauthenticated. */
        OPTIONAL,
        /** Clients must present a trusted certificate (mutual authentication). */
        REQUIRE
    }

    private static final String CERT = SystemSettings.property("tls.cert");
    private static final String KEY = SystemSettings.property("tls.key");

    private final KeyMaterial keyMaterial;
    private final List<X509Certificate> trusted;
    private final ClientAuth clientAuth;
    private final boolean verifyHostname;

    private TlsConfig(Builder builder) {
        this.keyMaterial = builder.keyMaterial;
        this.trusted = List.copyOf(builder.trusted);
        this.clientAuth = builder.clientAuth;
        this.verifyHostname = builder.verifyHostname;
    }

    /** A builder with no key, default trust, no client authentication and hostname verification. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The configuration given by the system properties {@code sessionj.tls.cert} and {@code sessionj.tls.key}
     * (PEM files: certificate chain and private key; both or neither), {@code sessionj.tls.trust} (PEM
     * files of trusted certificates, separated by the path separator), {@code sessionj.tls.clientAuth}
     * ({@code none}, {@code optional}, {@code require}; {@code true} means require) and
     * {@code sessionj.tls.verifyHostname} ({@code true} by default). The deprecated {@code sessionj.tls.*}
     * names are read too (see {@link SystemSettings}).
     *
     * @throws IOException if a file cannot be read or a value is not understood
     */
    public static TlsConfig fromSystemProperties() throws IOException {
        return fromSettings(SystemSettings.system());
    }

    /** As {@link #fromSystemProperties()}, reading the properties (full names) from {@code properties}. */
    public static TlsConfig fromProperties(UnaryOperator<String> properties) throws IOException {
        return fromSettings(SystemSettings.of(properties));
    }

    private static TlsConfig fromSettings(SystemSettings settings) throws IOException {
        Builder builder = builder();
        String cert = settings.value("tls.cert").orElse(null);
        String key = settings.value("tls.key").orElse(null);
        if ((cert == null) != (key == null)) {
            throw new IOException(CERT + " and " + KEY + " go together: found only "
                    + (cert == null ? KEY + "=" + key : CERT + "=" + cert));
        }
        if (cert != null) {
            builder.keyMaterial(Certificates.read(Path.of(cert), Path.of(key)));
        }
        String trust = settings.value("tls.trust").orElse(null);
        if (trust != null) {
            for (String file : trust.split(java.io.File.pathSeparator)) {
                if (!file.isBlank()) {
                    builder.trust(Certificates.readCertificates(Path.of(file.strip())));
                }
            }
        }
        String clientAuth = settings.value("tls.clientAuth").orElse(null);
        if (clientAuth != null) {
            builder.clientAuth(switch (clientAuth.toLowerCase(Locale.ROOT)) {
                case "none", "false" -> ClientAuth.NONE;
                case "optional" -> ClientAuth.OPTIONAL;
                case "require", "required", "true" -> ClientAuth.REQUIRE;
                default -> throw new IOException(SystemSettings.property("tls.clientAuth")
                        + " must be none, optional or require, found " + clientAuth);
            });
        }
        try {
            builder.verifyHostname(settings.flag("tls.verifyHostname", true));
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        return builder.build();
    }

    /** This side's key and certificate chain, if any. */
    public Optional<KeyMaterial> keyMaterial() {
        return Optional.ofNullable(keyMaterial);
    }

    /** The trust anchors; empty means the JDK's default trust store. */
    public List<X509Certificate> trustedCertificates() {
        return trusted;
    }

    /** Whether servers ask clients for certificates. */
    public ClientAuth clientAuth() {
        return clientAuth;
    }

    /** Whether clients check that the server's certificate names the host they connected to. */
    public boolean verifyHostname() {
        return verifyHostname;
    }

    /** Builds a {@link TlsConfig}. */
    public static final class Builder {
        private KeyMaterial keyMaterial;
        private final List<X509Certificate> trusted = new ArrayList<>();
        private ClientAuth clientAuth = ClientAuth.NONE;
        private boolean verifyHostname = true;

        private Builder() {
        }

        /** This side's key and certificate chain. */
        public Builder keyMaterial(KeyMaterial material) {
            this.keyMaterial = material;
            return this;
        }

        /** Adds trust anchors. */
        public Builder trust(List<X509Certificate> certificates) {
            this.trusted.addAll(certificates);
            return this;
        }

        /** Adds trust anchors. */
        public Builder trust(X509Certificate... certificates) {
            return trust(List.of(certificates));
        }

        /** Whether servers ask clients for certificates. */
        public Builder clientAuth(ClientAuth mode) {
            this.clientAuth = mode;
            return this;
        }

        /** Whether clients check that the server's certificate names the host. */
        public Builder verifyHostname(boolean verify) {
            this.verifyHostname = verify;
            return this;
        }

        /** The configuration. */
        public TlsConfig build() {
            return new TlsConfig(this);
        }
    }
}
