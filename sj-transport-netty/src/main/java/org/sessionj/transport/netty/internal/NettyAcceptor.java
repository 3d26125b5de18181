package org.sessionj.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.util.AttributeKey;
import java.util.concurrent.TimeUnit;
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
    /** How often a connection that found no handshake slot asks again. */
    static final long SLOT_RETRY_MILLIS = 100;
    private static final AttributeKey<HandshakeSlots.Slot> SLOT = AttributeKey.valueOf("sj.handshakeSlot");
    private static final AttributeKey<java.net.InetAddress> COUNTED_ADDRESS = AttributeKey.valueOf("sj.handshakeAddress");
    private static final System.Logger LOG = System.getLogger(NettyAcceptor.class.getName());

    /** Whether connections go through a handshake of the transport's own (TLS) before they are queued. */
    private final boolean transportHandshake;
    private volatile Channel serverChannel;
    private volatile HandshakeSlots slots;
    /** Whether the queue was full and has not been half taken since. */
    private volatile boolean queueFull;
    /** Accepted connections waiting for a handshake slot. */
    private final AtomicInteger waitingForSlot = new AtomicInteger();
    /** How many times accepting was turned back on after a pause (a diagnostic, and what a test watches). */
    private final AtomicInteger resumed = new AtomicInteger();
    /** Connections in their transport handshake per source address, capped; null without a transport handshake. */
    private final HandshakesPerAddress perAddress;

    /** What a failed transport handshake expected and found ({@link ChannelSetup#handshakeFailure}). */
    private final java.util.function.Function<Throwable, String> describeFailure;

    NettyAcceptor(String transportName, boolean transportHandshake,
            java.util.function.Function<Throwable, String> describeFailure) {
        super(transportName);
        this.transportHandshake = transportHandshake;
        this.describeFailure = describeFailure;
        this.perAddress = transportHandshake ? new HandshakesPerAddress(org.sessionj.runtime.spi.support.SystemSettings
                .system().integer("tls.maxHandshakesPerAddress", HandshakesPerAddress.DEFAULT_CAP)) : null;
    }

    /** Connections closed so far because their address had its most connections in a transport handshake. */
    public long refusedPerAddress() {
        return perAddress == null ? 0 : perAddress.refused();
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
     * slot, and gives the slot back when it is queued or closes.
     */
    void admit(Channel channel) {
        if (perAddress != null && !enterPerAddress(channel)) {
            return;
        }
        HandshakeSlots counting = slots;
        if (counting == null) {
            return; // the transport is used without a server socket's limit
        }
        boundHandshake(channel, counting.transportHandshakeTimeoutNanos());
        channel.config().setAutoRead(false);
        tryAdmit(channel, counting);
    }

    /**
     * Bounds the TLS handshake of {@code channel} by the server socket's initiation timeout when that is
     * shorter than the handler's own (Netty's 10 s), counted from now, its accept: time spent waiting for
     * a slot counts too. Before, a peer that sent its ClientHello and then nothing (or a record header and
     * not the record) held its connection and slot for the full 10 s whatever the initiation timeout said.
     * A handler timer of our own: the handler's already runs, started when it was added.
     */
    private void boundHandshake(Channel channel, long timeoutNanos) {
        io.netty.handler.ssl.SslHandler ssl = channel.pipeline().get(io.netty.handler.ssl.SslHandler.class);
        if (ssl == null || timeoutNanos < 0
                || timeoutNanos >= TimeUnit.MILLISECONDS.toNanos(ssl.getHandshakeTimeoutMillis())) {
            return;
        }
        io.netty.util.concurrent.Future<?> deadline = channel.eventLoop().schedule(() -> {
            if (!ssl.handshakeFuture().isDone() && channel.isOpen()) {
                LOG.log(System.Logger.Level.DEBUG, () -> "closed a " + transportName() + " connection from "
                        + channel.remoteAddress() + ": expected its " + transportName()
                        + " handshake to succeed within " + java.time.Duration.ofNanos(timeoutNanos)
                        + " of its accept (sessionj.initiationTimeout), found it unfinished");
                HandshakeSlots.Slot slot = channel.attr(SLOT).getAndSet(null);
                if (slot != null) {
                    slot.expired(); // counted and told as a failed handshake
                }
                abort(channel);
            }
        }, timeoutNanos, TimeUnit.NANOSECONDS);
        ssl.handshakeFuture().addListener(f -> deadline.cancel(false));
    }

    private void tryAdmit(Channel channel, HandshakeSlots counting) {
        if (!admitted(channel, counting)) {
            // Stop accepting until this one has a slot: the next peers wait in the kernel's backlog.
            if (waitingForSlot.getAndIncrement() == 0) {
                updateAccepting();
            }
            retryAdmit(channel, counting);
        }
    }

    /**
     * Asks again for a slot a little later. The connection counts as waiting all along, so accepting
     * stays off between two tries (before, each retry counted it out and back in, and accepting was
     * turned on and off again, letting the kernel's backlog in a little at every try).
     */
    private void retryAdmit(Channel channel, HandshakeSlots counting) {
        channel.eventLoop().schedule(() -> {
            if (!admitted(channel, counting)) {
                retryAdmit(channel, counting);
            } else if (waitingForSlot.decrementAndGet() == 0) {
                updateAccepting();
            }
        }, SLOT_RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Whether {@code channel} is done waiting for a slot: it has one and reads, or it is closed. */
    private boolean admitted(Channel channel, HandshakeSlots counting) {
        if (!channel.isOpen() || isClosed()) {
            channel.close();
            return true;
        }
        HandshakeSlots.Slot slot = counting.tryEnter(transportName(), () -> abort(channel));
        if (slot == null) {
            return false;
        }
        channel.attr(SLOT).set(slot);
        channel.closeFuture().addListener(f -> leave(channel));
        countFailure(channel);
        channel.config().setAutoRead(true);
        return true;
    }

    /**
     * Counts a TLS handshake that fails while its channel is open (bytes that are no TLS record, an
     * untrusted certificate, the handler's own timeout) as a failed handshake of the server socket, as a
     * refused session request is; before, such a connection was closed and only logged at DEBUG. The
     * handler fails its handshake before anything closes the channel, so this comes first; a channel
     * closed first (by the peer, a drop, the deadline, the server socket) has given its slot back and
     * ends as that.
     */
    private void countFailure(Channel channel) {
        io.netty.handler.ssl.SslHandler ssl = channel.pipeline().get(io.netty.handler.ssl.SslHandler.class);
        if (ssl == null) {
            return;
        }
        ssl.handshakeFuture().addListener(f -> {
            if (!f.isSuccess() && channel.isOpen()) {
                HandshakeSlots.Slot slot = channel.attr(SLOT).getAndSet(null);
                if (slot != null) {
                    String why;
                    try {
                        why = describeFailure.apply(f.cause());
                    } catch (RuntimeException e) {
                        why = String.valueOf(f.cause());
                    }
                    slot.failed(why);
                }
            }
        });
    }

    /**
     * Drops a connection still in its transport handshake at once: closed under the pipeline, not
     * through it, because a TLS handler's orderly close of a handshake that never started waits for a
     * close_notify flush (up to Netty's 3 s flush timeout), and meanwhile no other stalled handshake
     * may be dropped for the connections waiting behind it.
     */
    private static void abort(Channel channel) {
        channel.eventLoop().execute(() -> channel.unsafe().close(channel.voidPromise()));
    }

    private void leave(Channel channel) {
        HandshakeSlots.Slot slot = channel.attr(SLOT).getAndSet(null);
        if (slot != null) {
            slot.leave();
        }
        java.net.InetAddress address = channel.attr(COUNTED_ADDRESS).getAndSet(null);
        if (address != null) {
            perAddress.leave(address);
        }
    }

    /**
     * Counts {@code channel} toward its source address's cap of connections in a transport handshake, to
     * leave it when the handshake ends or the channel closes; at the cap, closes it at once (before it
     * reads a byte, so before any cryptography) and returns false.
     */
    private boolean enterPerAddress(Channel channel) {
        if (!(channel.remoteAddress() instanceof java.net.InetSocketAddress remote) || remote.getAddress() == null) {
            return true;
        }
        java.net.InetAddress address = remote.getAddress();
        if (!perAddress.tryEnter(address)) {
            channel.config().setAutoRead(false);
            long refused = perAddress.refused();
            // Once, then at each power of two: a flood from one address must not flood the log.
            System.Logger.Level level = (refused & (refused - 1)) == 0 ? System.Logger.Level.INFO : System.Logger.Level.DEBUG;
            LOG.log(level, () -> "closed a " + transportName() + " connection from " + address.getHostAddress()
                    + ": that address has " + perAddress.cap() + " connections in their " + transportName()
                    + " handshake already (sessionj.tls.maxHandshakesPerAddress; " + refused + " refused so far)");
            abort(channel);
            return false;
        }
        channel.attr(COUNTED_ADDRESS).set(address);
        channel.closeFuture().addListener(f -> leave(channel));
        return true;
    }

    /**
     * Event loop: a new usable connection (for TLS: its handshake succeeded, so its handshake slot is
     * given back; the session handshake takes one anew). With
     * {@link org.sessionj.runtime.spi.support.PendingConnections#BOUND} not taken, the server channel
     * stops accepting until they are half taken (the kernel's backlog holds the next ones).
     */
    void enqueue(NettyConnection connection) {
        if (transportHandshake) {
            leave(connection.channel());
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
                boolean accept = !queueFull && waitingForSlot.get() == 0;
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
