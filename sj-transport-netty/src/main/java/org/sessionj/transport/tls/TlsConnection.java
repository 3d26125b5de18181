package org.sessionj.transport.tls;

import io.netty.channel.Channel;
import java.security.Principal;
import org.sessionj.runtime.spi.AuthenticatedConnection;
import org.sessionj.transport.netty.internal.NettyConnection;
import org.sessionj.transport.netty.internal.NettySettings;

/** A connection over TLS: a Netty connection that knows whom the handshake authenticated. */
final class TlsConnection extends NettyConnection implements AuthenticatedConnection {
    private volatile Principal peerPrincipal;

    TlsConnection(Channel channel, NettySettings settings) {
        super(channel, TlsTransport.NAME, settings);
    }

    void authenticated(Principal principal) {
        this.peerPrincipal = principal;
    }

    @Override
    public Principal peerPrincipal() {
        return peerPrincipal;
    }
}
