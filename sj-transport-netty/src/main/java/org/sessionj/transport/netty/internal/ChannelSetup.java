package org.sessionj.transport.netty.internal;

import io.netty.channel.Channel;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** How a Netty transport builds a channel's pipeline, and when the connection on it may be used. */
public interface ChannelSetup {

    /**
     * Builds the pipeline of an accepted channel and hands the connection to {@code accepted} once
     * it may be used (at once for TCP, after the handshake for TLS). A channel that never becomes
     * usable is closed without being handed over.
     */
    void initAccepted(Channel channel, Consumer<NettyConnection> accepted);

    /**
     * Builds the pipeline of a connecting channel and completes {@code ready} once the connection may
     * be used, or exceptionally with an {@link java.io.IOException} naming why it cannot.
     */
    void initConnecting(Channel channel, String host, int port, CompletableFuture<NettyConnection> ready);

    /**
     * Whether an accepted connection goes through a handshake of the transport's own (TLS) before it
     * is handed over: then it counts toward the server socket's pending-handshake limit meanwhile
     * ({@link org.sessionj.runtime.spi.ConnectionAcceptor#countHandshakes}).
     */
    default boolean hasHandshake() {
        return false;
    }

    /**
     * What an accepted connection's failed transport handshake expected and found, for the server
     * socket's failed-handshake count and listener ({@link #hasHandshake} transports only).
     *
     * @param cause why the handshake failed
     * @return a short sentence naming what was expected and what the peer sent
     */
    default String handshakeFailure(Throwable cause) {
        return String.valueOf(cause);
    }
}
