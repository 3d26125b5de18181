package org.sessionj.api;

import org.sessionj.api.spi.SessionRuntimeProvider;

/**
 * The address of a session service and the protocol its sessions follow (requester side). It is
 * also a value: it can be sent in a session ({@code !<cbegin.@(P)>}, service passing).
 */
public interface SJService {

    /** A service at {@code host:port} whose sessions follow {@code protocol} (a {@link Protocol} interface). */
    static SJService create(Class<?> protocol, String host, int port) {
        return SessionRuntimeProvider.get().createService(protocol, host, port);
    }

    /**
     * Starts a session with the service; the peers' types are checked for compatibility first. It returns
     * once the server agreed the session, which may be before the server's program takes it with
     * {@code accept()}: a session the server's program does not take within the server's accept timeout
     * fails at this side's next input with "the server did not accept the session within …".
     */
    SJSocket request();

    /** The host of the service. */
    String host();

    /** The session port of the service. */
    int port();

    /** The protocol of this side, in canonical SJ notation. */
    String protocol();
}
