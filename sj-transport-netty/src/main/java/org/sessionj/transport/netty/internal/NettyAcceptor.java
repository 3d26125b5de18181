package org.sessionj.transport.netty.internal;

import io.netty.channel.Channel;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;

/**
 * A listening server channel and the queue of connections it has accepted (and, for TLS, whose
 * handshake succeeded) that nobody has taken yet. Waiting uses {@code java.util.concurrent} locks,
 * never monitors.
 */
public final class NettyAcceptor implements ConnectionAcceptor {
    /** Put in the queue by {@link #close} to wake every waiting {@link #accept}. */
    private static final Object CLOSED = new Object();

    private final LinkedBlockingQueue<Object> pending = new LinkedBlockingQueue<>();
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

    /** Event loop: a new usable connection. */
    void enqueue(NettyConnection connection) {
        if (closed) {
            connection.close();
            return;
        }
        pending.add(connection);
        if (closed && pending.remove(connection)) {
            connection.close();
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Connection accept(long timeoutNanos) throws IOException {
        if (closed) {
            throw closedException();
        }
        Object next;
        try {
            next = timeoutNanos < 0 ? pending.take() : pending.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while accepting on " + transportName + " port " + port);
        }
        if (next == CLOSED) {
            pending.add(CLOSED); // for the next waiter
            throw closedException();
        }
        return (Connection) next;
    }

    private IOException closedException() {
        return new IOException(transportName + " acceptor on port " + port + " is closed");
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
        Object next;
        while ((next = pending.poll()) != null) {
            if (next instanceof NettyConnection connection) {
                connection.close();
            }
        }
        pending.add(CLOSED);
    }
}
