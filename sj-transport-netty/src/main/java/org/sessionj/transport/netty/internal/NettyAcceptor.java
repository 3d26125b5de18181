package org.sessionj.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import java.util.concurrent.atomic.AtomicInteger;
import org.sessionj.runtime.spi.HandshakeSlots;

/**
 * A listening server channel and the queue of connections it has accepted (and, for TLS, whose
 * handshake succeeded) that nobody has taken yet. Waiting uses {@code java.util.concurrent} locks,
 * never monitors.
 *
 * <p>The server channel stops accepting (the next peers wait in the kernel's backlog) while the queue
 * is full, and, for a transport with a handshake of its own, while an accepted connection waits for a
 * handshake slot of the server socket ({@link #countHandshakes}).
 */
public final class NettyAcceptor extends QueuedAcceptor {
    /** Whether connections go through a handshake of the transport's own (TLS) before they are queued. */
    private final boolean transportHandshake;
    private volatile Channel serverChannel;
    private volatile HandshakeSlots slots;
    /** Whether the queue was full and has not been half taken since. */
    private volatile boolean queueFull;
    /** How many times accepting was turned back on after a pause (a diagnostic, and what a test watches). */
    private final AtomicInteger resumed = new AtomicInteger();
    /** The bounds on connections in their TLS handshake; null without a transport handshake. */
    private final TlsHandshakes handshakes;

    NettyAcceptor(String transportName, boolean transportHandshake,
            java.util.function.Function<Throwable, String> describeFailure) {
        super(transportName);
        this.transportHandshake = transportHandshake;
        this.handshakes = transportHandshake
                ? new TlsHandshakes(transportName, describeFailure, this::isClosed, this::updateAccepting) : null;
    }

    /** Connections closed so far because their address had its most connections in a transport handshake. */
    public long refusedPerAddress() {
        return handshakes == null ? 0 : handshakes.refusedPerAddress();
    }

    void bound(Channel channel, int boundPort) {
        this.serverChannel = channel;
        bound(boundPort);
    }

    @Override
    public void countHandshakes(HandshakeSlots handshakeSlots) {
        if (transportHandshake) {
            this.slots = handshakeSlots;
        }
    }

    /**
     * Event loop, while the pipeline of an accepted channel is built: when a server socket counts
     * handshakes, the channel reads nothing (so its TLS handshake does not start) until it holds a
     * slot, and gives the slot back when its TLS handshake ends or it closes ({@link TlsHandshakes}).
     */
    void admit(Channel channel) {
        if (handshakes != null) {
            handshakes.admit(channel, slots);
        }
    }

    /**
     * Event loop: a new usable connection (for TLS: its handshake succeeded, so its handshake slot is
     * given back; the session handshake takes one anew). With
     * {@link org.sessionj.runtime.spi.support.PendingConnections#BOUND} not taken, the server channel
     * stops accepting until they are half taken (the kernel's backlog holds the next ones).
     */
    void enqueue(NettyConnection connection) {
        if (handshakes != null) {
            handshakes.done(connection.channel());
        }
        if (enqueue((org.sessionj.runtime.spi.Connection) connection)) {
            queueFull = true;
            updateAccepting();
            whenRoom(() -> {
                queueFull = false;
                updateAccepting();
            });
        }
    }

    /**
     * Accepts while the queue has room and no connection waits for a handshake slot. Set on the server
     * channel's event loop, from the latest state, so that two changes racing cannot leave it paused.
     */
    private void updateAccepting() {
        Channel server = serverChannel;
        if (server == null) {
            return;
        }
        try {
            server.eventLoop().execute(() -> {
                boolean accept = !queueFull && (handshakes == null || !handshakes.waiting());
                if (accept && !server.config().isAutoRead()) {
                    resumed.incrementAndGet();
                }
                server.config().setAutoRead(accept);
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the event loops are shut down: nothing is accepted any more anyway
        }
    }

    /** Whether the server channel accepts connections now (false while paused, or not yet bound). */
    public boolean accepting() {
        Channel server = serverChannel;
        return server != null && server.isOpen() && server.config().isAutoRead();
    }

    /** How many times the server channel went back to accepting after it had stopped (queue full, or a connection waiting for a handshake slot). */
    public int acceptingResumed() {
        return resumed.get();
    }

    @Override
    Release closeSocket() {
        Channel channel = serverChannel;
        if (channel == null) {
            return Release.NONE;
        }
        // Waits for the port to be released, so that a later listen or canReach sees it free.
        Futures.awaitUninterruptibly(channel.close());
        // A native epoll channel closes its descriptor in the close itself, so the kernel has dropped the
        // listener once the close is done; NIO releases it only at its selector's next select, which the
        // kernel's tables are then watched for (LocalPorts.awaitReleased: every look reads them whole, tens of
        // milliseconds on a host with many sockets, at every server socket's close).
        return channel.eventLoop().inEventLoop() || channel instanceof EpollServerSocketChannel ? Release.RELEASED
                : Release.AWAIT;
    }
}
