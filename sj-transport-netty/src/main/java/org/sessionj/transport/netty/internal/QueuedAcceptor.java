package org.sessionj.transport.netty.internal;

import java.io.IOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.support.PendingConnections;

/**
 * What the TCP acceptors share, whatever accepts their connections (Netty's event loop or a blocking
 * accept loop): the queue of accepted connections nobody took ({@link PendingConnections}, bounded:
 * a full queue stops accepting until it is half taken), the port, {@link #accept} and an idempotent
 * {@link #close} that closes the listening socket, marks the port released and closes the queue.
 */
abstract class QueuedAcceptor implements ConnectionAcceptor {
    private final PendingConnections pending = new PendingConnections(this::describe);
    private final String transportName;
    private volatile int port;
    private volatile boolean closed;

    QueuedAcceptor(String transportName) {
        this.transportName = transportName;
    }

    /** The name of the transport, for messages. */
    final String transportName() {
        return transportName;
    }

    /** Records the port the listening socket is bound to, and that this JVM listens there. */
    final void bound(int boundPort) {
        this.port = boundPort;
        LocalPorts.listening(boundPort);
        org.sessionj.runtime.spi.support.ListenerPreload.afterListen(); // before peers can use up the descriptors
    }

    /**
     * Queues a usable connection for {@link #accept}.
     *
     * @return true when the queue is now full: the caller stops accepting and resumes when
     *         {@link #whenRoom} runs its action (the next peers wait in the kernel's backlog)
     */
    final boolean enqueue(Connection connection) {
        pending.add(connection);
        return pending.isFull();
    }

    /** Runs {@code resume} once the queue is at most half full (at once if it is), or closed. */
    final void whenRoom(Runnable resume) {
        pending.whenRoom(resume);
    }

    /** Whether {@link #close} has begun. */
    final boolean isClosed() {
        return closed;
    }

    @Override
    public final int port() {
        return port;
    }

    @Override
    public final Connection accept(long timeoutNanos) throws IOException {
        return pending.take(timeoutNanos);
    }

    final String describe() {
        return transportName + " acceptor on port " + port;
    }

    /**
     * Closes the listening socket (once). Returns whether to wait until the kernel has released the
     * port, so that a later listen or canReach sees it free: false when nothing was bound, or when the
     * caller is the thread that must finish the release itself (an event loop).
     *
     * @return whether a port was bound, and whether to wait for its release: {@link Release}
     */
    abstract Release closeSocket();

    /** What {@link #closeSocket} leaves to {@link #close}. */
    enum Release {
        /** No port was bound. */
        NONE,
        /** The port is released; do not wait (the closing thread itself finishes the release). */
        RELEASED,
        /** The port is released; wait until the kernel says so. */
        AWAIT
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        Release release = closeSocket();
        if (release != Release.NONE) {
            if (release == Release.AWAIT) {
                LocalPorts.awaitReleased(port);
            }
            LocalPorts.released(port);
        }
        pending.close();
    }
}
