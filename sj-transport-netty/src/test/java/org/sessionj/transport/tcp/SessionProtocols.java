package org.sessionj.transport.tcp;

import org.sessionj.api.Protocol;

/** Protocols for the session tests over the Netty transports (parsed at run time: no processor here). */
public final class SessionProtocols {
    private SessionProtocols() {
    }

    /** Ints out, ints back, for as long as the requester likes; then a text. */
    @Protocol("cbegin.![!<int>.?(int)]*.?(String)")
    public interface PingClient {
    }

    /** The dual of {@link PingClient}. */
    @Protocol("^(PingClient)")
    public interface PingServer {
    }

    /** Like {@link PingClient} but sends texts: incompatible with {@link PingServer}. */
    @Protocol("cbegin.![!<String>.?(int)]*.?(String)")
    public interface TextClient {
    }
}
