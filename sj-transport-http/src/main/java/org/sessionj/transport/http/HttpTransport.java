package org.sessionj.transport.http;

import com.google.auto.service.AutoService;
import io.netty.handler.ssl.SslContext;
import org.sessionj.runtime.spi.Transport;

/**
 * The {@code http} transport: session frames in plain HTTP/1.1 (WebSocket where the path allows it,
 * long polling otherwise), directly to the peer's HTTP port or through a relay (docs/http-transport.md).
 * Enabled by default only when a relay is configured ({@code sessionj.http.relay}); otherwise name it.
 */
@AutoService(Transport.class)
public final class HttpTransport extends TunnelTransport {
    /** The configuration name of this transport. */
    public static final String NAME = "http";

    /** An http transport configured by system properties (see {@link HttpConfig}). */
    public HttpTransport() {
        this(null);
    }

    /** An http transport with an explicit configuration ({@code null}: the system properties). */
    public HttpTransport(HttpConfig config) {
        super(NAME, config);
    }

    /** Used by default when a relay is configured: requesters fall back to it when tcp cannot get through. */
    @Override
    public boolean enabledByDefault() {
        return config().relay().isPresent();
    }

    @Override
    SslContext clientSsl() {
        return null;
    }

    @Override
    SslContext serverSsl() {
        return null;
    }
}
