package org.sessionj.runtime.spi;

import java.security.Principal;

/**
 * Optional capability of a connection whose transport authenticates the peer (TLS): who the peer
 * proved to be. Found with {@link Connection#capability}.
 */
public interface AuthenticatedConnection extends Connection {

    /**
     * The peer's authenticated identity (for TLS the subject of its certificate), or {@code null} if
     * the peer did not authenticate (a TLS client when client authentication is not required).
     */
    Principal peerPrincipal();
}
