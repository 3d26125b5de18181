package org.sessionj.transport.http;

import com.google.auto.service.AutoService;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.transport.tls.TlsConfig;
import org.sessionj.transport.tls.TlsContexts;

/**
 * The {@code https} transport: the {@code http} transport inside TLS, with the tls transport's
 * configuration ({@code sj.tls.*}, {@link TlsConfig}): the same keys, trust, client authentication
 * and hostname verification. A direct acceptor needs key material; a relay-mode server is the relay's
 * TLS client and needs none. Used only when named.
 */
@AutoService(Transport.class)
public final class HttpsTransport extends TunnelTransport {
    /** The configuration name of this transport. */
    public static final String NAME = "https";

    private final TlsConfig explicitTls;
    private volatile Contexts contexts;

    /** An https transport configured by system properties ({@link HttpConfig}, {@code sj.tls.*}). */
    public HttpsTransport() {
        this(null, null);
    }

    /** An https transport with explicit configurations ({@code null}: the system properties'). */
    public HttpsTransport(HttpConfig config, TlsConfig tls) {
        super(NAME, config);
        this.explicitTls = tls;
    }

    /** https needs TLS configuration and is used only when a configuration names it. */
    @Override
    public boolean enabledByDefault() {
        return false;
    }

    @Override
    SslContext clientSsl() throws IOException {
        return contexts().client();
    }

    @Override
    SslContext serverSsl() throws IOException {
        SslContext server = contexts().server();
        if (server == null) {
            throw new IOException("the https transport needs key material to accept directly: set sj.tls.cert and"
                    + " sj.tls.key (PEM files; ./sj tls keygen makes a development pair), or use a relay");
        }
        return server;
    }

    private Contexts contexts() throws IOException {
        Contexts c = contexts;
        if (c == null) {
            TlsConfig config = explicitTls != null ? explicitTls : TlsConfig.fromSystemProperties();
            c = new Contexts(TlsContexts.server(config), TlsContexts.client(config));
            contexts = c;
        }
        return c;
    }

    private record Contexts(SslContext server, SslContext client) {
    }
}
