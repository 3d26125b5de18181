package org.sessionj.transport.netty.internal;

import io.netty.channel.Channel;
import java.io.IOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.support.PendingConnections;

/**
 * A listening server channel and the queue of connections it has accepted (and, for TLS, whose
 * handshake succeeded) that nobody has taken yet. Waiting uses {@code java.util.concurrent} locks,
 * never monitors.
 */
public final class NettyAcceptor implements ConnectionAcceptor {

    private final PendingConnections pending = new PendingConnections(this::describe);
    private final String transportName;
    private volatile Channel serverChannel;
    private volatile int port;
    private volatile boolean closed;

    NettyAcceptor(String transportName) {
        this.transportName = transportName;
    }

    void bound(Channel channel, int boundPort) {
        this.serverChannel = channel;
        this.port = boundPort;
    }

    /**
     * Event loop: a new usable connection. With {@link PendingConnections#BOUND} not taken, the server
     * channel stops accepting until they are half taken (the kernel's backlog holds the next ones).
     */
    void enqueue(NettyConnection connection) {
        pending.add(connection);
        Channel server = serverChannel;
        if (server != null && pending.isFull()) {
            server.config().setAutoRead(false);
            pending.whenRoom(() -> server.config().setAutoRead(true));
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Connection accept(long timeoutNanos) throws IOException {
        return pending.take(timeoutNanos);
    }

    private String describe() {
        return transportName + " acceptor on port " + port;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Channel channel = serverChannel;
        if (channel != null) {
            // Waits for the port to be released, so that a later listen or canReach sees it free.
            Futures.awaitUninterruptibly(channel.close());
            LocalPorts.released(port);
            if (!channel.eventLoop().inEventLoop()) {
                LocalPorts.awaitReleased(port);
            }
        }
        pending.close();
    }
}
