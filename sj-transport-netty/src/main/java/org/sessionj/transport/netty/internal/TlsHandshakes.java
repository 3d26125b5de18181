package org.sessionj.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.sessionj.runtime.spi.HandshakeSlots;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * The bounds on the TLS handshakes of one listening port, shared by every server that speaks TLS: the
 * {@code tls} transport's acceptor ({@link NettyAcceptor}) and the HTTPS servers of the {@code https}
 * transport and the relay (sj-transport-http's {@code TunnelServer}). For each accepted channel whose
 * pipeline has an {@link SslHandler}, {@link #admit}:
 * <ul>
 * <li>counts it toward its source address's cap of connections in their TLS handshake
 * ({@code sessionj.tls.maxHandshakesPerAddress}, 64), closing it before it reads a byte past the cap;
 * <li>makes it hold a pending-handshake slot ({@link HandshakeSlots}) from its accept to the end of its TLS
 * handshake: it reads nothing (its handshake does not start) until it has one, and while any connection
 * waits for a slot the owner stops accepting ({@link #waiting()}, told through {@code waitingChanged});
 * <li>closes it when its handshake has not succeeded within the slots' deadline
 * ({@link HandshakeSlots#transportHandshakeTimeoutNanos}) when that is shorter than the handler's own;
 * <li>counts a handshake that fails while the channel is open as a failed handshake, with what was
 * expected and found ({@link #failure}).
 * </ul>
 * Its engines' delegated tasks (the key exchange and signature) run on {@link #delegatedTasks()}, not on
 * the event loop: create the handler with {@code SslContext.newHandler(alloc, TlsHandshakes.delegatedTasks())}
 * (clients too: {@code newHandler(alloc, host, port, TlsHandshakes.delegatedTasks())}).
 *
 * <p>Before this class the HTTPS servers had none of these: silent TLS connections were bounded only by
 * the server's connection cap and Netty's 10 s handshake timeout, a failed handshake was logged at DEBUG
 * only, and each handshake's cryptography ran on the event loop that also serves established sessions.
 */
public final class TlsHandshakes {
    /** How often a connection that found no handshake slot asks again. */
    static final long SLOT_RETRY_MILLIS = 100;
    private static final AttributeKey<HandshakeSlots.Slot> SLOT = AttributeKey.valueOf("sj.handshakeSlot");
    private static final AttributeKey<InetAddress> COUNTED_ADDRESS = AttributeKey.valueOf("sj.handshakeAddress");
    private static final System.Logger LOG = System.getLogger(TlsHandshakes.class.getName());
    /** How many of a non-TLS peer's first bytes a failed handshake's reason shows. */
    private static final int SHOWN_BYTES = 16;

    /**
     * Runs TLS engines' delegated tasks (a handshake's key exchange, signature and certificate checks) off
     * the event loops, for accepted and connecting channels alike. Run inline, as Netty does by default,
     * each handshake held its event loop for its cryptography, and every established session on that loop
     * waited: a flood of honest TLS handshakes (8 clients, 10 s, load ~45) took an established tls
     * session's round trips from a median of 0.19 ms to 733 ms. At most one task per connection in its TLS
     * handshake is queued: on a server those are bounded by the pending-handshake slots, on a client by the
     * connections its program opens; one thread per core, daemon, gone when idle; one pool for the JVM.
     */
    private static final ThreadPoolExecutor DELEGATED_TASKS = newPool();

    private final String transportName;
    private final Function<Throwable, String> describeFailure;
    private final BooleanSupplier closed;
    private final Runnable waitingChanged;
    private final HandshakesPerAddress perAddress;
    /** Accepted connections waiting for a handshake slot. */
    private final AtomicInteger waitingForSlot = new AtomicInteger();

    /**
     * @param transportName the transport's name, for the log
     * @param describeFailure what a failed handshake expected and found, from its cause (for example {@link #failure})
     * @param closed whether the listening socket is closed (a connection still waiting for a slot is then closed)
     * @param waitingChanged run when the first connection starts waiting for a slot and when the last stops:
     *        the owner stops accepting while {@link #waiting()}
     */
    public TlsHandshakes(String transportName, Function<Throwable, String> describeFailure, BooleanSupplier closed,
            Runnable waitingChanged) {
        this.transportName = transportName;
        this.describeFailure = describeFailure;
        this.closed = closed;
        this.waitingChanged = waitingChanged;
        this.perAddress = new HandshakesPerAddress(SystemSettings.system()
                .integer("tls.maxHandshakesPerAddress", HandshakesPerAddress.DEFAULT_CAP));
    }

    private static ThreadPoolExecutor newPool() {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), Thread.ofPlatform().daemon().name("sj-tls-handshake-", 0).factory());
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /** Where TLS engines run their delegated tasks: a pool of one platform daemon thread per core. */
    public static Executor delegatedTasks() {
        return DELEGATED_TASKS;
    }

    /** Connections closed so far because their address had its most connections in a TLS handshake. */
    public long refusedPerAddress() {
        return perAddress.refused();
    }

    /** Whether an accepted connection waits for a handshake slot (the owner then accepts no more). */
    public boolean waiting() {
        return waitingForSlot.get() > 0;
    }

    /**
     * Event loop, right after the pipeline of an accepted channel got its {@link SslHandler}: applies the
     * bounds above. A channel without one is left alone.
     *
     * @param slots the listening socket's pending-handshake slots, or null when it has none (then only the
     *        cap per address and the failure count through nothing: the handler's own timeout applies)
     * @return false if the channel was closed at once (its address is at its cap)
     */
    public boolean admit(Channel channel, HandshakeSlots slots) {
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        if (ssl == null) {
            return true;
        }
        if (!enterPerAddress(channel)) {
            return false;
        }
        // Whatever ends the handshake first gives back what the channel holds.
        ssl.handshakeFuture().addListener(f -> {
            if (f.isSuccess()) {
                done(channel);
            } else if (channel.isOpen()) {
                countFailure(channel, f.cause());
            }
        });
        if (slots == null) {
            return true;
        }
        boundHandshake(channel, ssl, slots.transportHandshakeTimeoutNanos());
        channel.config().setAutoRead(false);
        if (!admitted(channel, slots)) {
            // Stop accepting until this one has a slot: the next peers wait in the kernel's backlog.
            if (waitingForSlot.getAndIncrement() == 0) {
                waitingChanged.run();
            }
            retryAdmit(channel, slots);
        }
        return true;
    }

    /**
     * The channel's TLS handshake succeeded (or it is handed on for good): gives back its slot and its
     * place under its address's cap. Idempotent; {@link #admit} does it when the handshake succeeds.
     */
    public void done(Channel channel) {
        HandshakeSlots.Slot slot = channel.attr(SLOT).getAndSet(null);
        if (slot != null) {
            slot.leave();
        }
        InetAddress address = channel.attr(COUNTED_ADDRESS).getAndSet(null);
        if (address != null) {
            perAddress.leave(address);
        }
    }

    /**
     * Bounds the TLS handshake of {@code channel} by the listening socket's deadline when that is shorter
     * than the handler's own (Netty's 10 s), counted from now, its accept: time spent waiting for a slot
     * counts too. Before, a peer that sent its ClientHello and then nothing (or a record header and not the
     * record) held its connection and slot for the full 10 s whatever the initiation timeout said. A timer
     * of our own: the handler's already runs, started when it was added.
     */
    private void boundHandshake(Channel channel, SslHandler ssl, long timeoutNanos) {
        if (timeoutNanos < 0 || timeoutNanos >= TimeUnit.MILLISECONDS.toNanos(ssl.getHandshakeTimeoutMillis())) {
            return;
        }
        io.netty.util.concurrent.Future<?> deadline = channel.eventLoop().schedule(() -> {
            if (!ssl.handshakeFuture().isDone() && channel.isOpen()) {
                LOG.log(System.Logger.Level.DEBUG, () -> "closed a " + transportName + " connection from "
                        + channel.remoteAddress() + ": expected its TLS handshake to succeed within "
                        + Duration.ofNanos(timeoutNanos) + " of its accept (sessionj.initiationTimeout), found it unfinished");
                HandshakeSlots.Slot slot = channel.attr(SLOT).getAndSet(null);
                if (slot != null) {
                    slot.expired(); // counted and told as a failed handshake
                }
                abort(channel);
            }
        }, timeoutNanos, TimeUnit.NANOSECONDS);
        ssl.handshakeFuture().addListener(f -> deadline.cancel(false));
    }

    /**
     * Asks again for a slot a little later. The connection counts as waiting all along, so accepting
     * stays off between two tries (before, each retry counted it out and back in, and accepting was
     * turned on and off again, letting the kernel's backlog in a little at every try).
     */
    private void retryAdmit(Channel channel, HandshakeSlots slots) {
        channel.eventLoop().schedule(() -> {
            if (!admitted(channel, slots)) {
                retryAdmit(channel, slots);
            } else if (waitingForSlot.decrementAndGet() == 0) {
                waitingChanged.run();
            }
        }, SLOT_RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Whether {@code channel} is done waiting for a slot: it has one and reads, or it is closed. */
    private boolean admitted(Channel channel, HandshakeSlots slots) {
        if (!channel.isOpen() || closed.getAsBoolean()) {
            channel.close();
            return true;
        }
        HandshakeSlots.Slot slot = slots.tryEnter(transportName, () -> abort(channel));
        if (slot == null) {
            return false;
        }
        channel.attr(SLOT).set(slot);
        channel.closeFuture().addListener(f -> done(channel));
        channel.config().setAutoRead(true);
        return true;
    }

    /**
     * Counts a TLS handshake that failed while its channel is open (bytes that are no TLS record, an
     * untrusted certificate, the handler's own timeout) as a failed handshake of the listening socket, as
     * a refused session request is. The handler fails its handshake before anything closes the channel, so
     * this comes first; a channel closed first (by the peer, a drop, the deadline, the server socket) has
     * given its slot back and ends as that: a peer that closes in the middle of its handshake is not
     * counted, like a port probe.
     */
    private void countFailure(Channel channel, Throwable cause) {
        HandshakeSlots.Slot slot = channel.attr(SLOT).getAndSet(null);
        if (slot == null) {
            return;
        }
        String why;
        try {
            why = describeFailure.apply(cause);
        } catch (RuntimeException e) {
            why = String.valueOf(cause);
        }
        slot.failed(why);
    }

    /**
     * Drops a connection still in its TLS handshake at once: closed under the pipeline, not through it,
     * because a TLS handler's orderly close of a handshake that never started waits for a close_notify
     * flush (up to Netty's 3 s flush timeout), and meanwhile no other stalled handshake may be dropped for
     * the connections waiting behind it.
     */
    static void abort(Channel channel) {
        channel.eventLoop().execute(() -> channel.unsafe().close(channel.voidPromise()));
    }

    /**
     * Counts {@code channel} toward its source address's cap of connections in a TLS handshake, to leave it
     * when the handshake ends or the channel closes; at the cap, closes it at once (before it reads a byte,
     * so before any cryptography) and returns false.
     */
    private boolean enterPerAddress(Channel channel) {
        if (!(channel.remoteAddress() instanceof InetSocketAddress remote) || remote.getAddress() == null) {
            return true;
        }
        InetAddress address = remote.getAddress();
        if (!perAddress.tryEnter(address)) {
            channel.config().setAutoRead(false);
            long refused = perAddress.refused();
            // Once, then at each power of two: a flood from one address must not flood the log.
            System.Logger.Level level = (refused & (refused - 1)) == 0 ? System.Logger.Level.INFO : System.Logger.Level.DEBUG;
            LOG.log(level, () -> "closed a " + transportName + " connection from " + address.getHostAddress()
                    + ": that address has " + perAddress.cap() + " connections in their TLS handshake already"
                    + " (sessionj.tls.maxHandshakesPerAddress; " + refused + " refused so far)");
            abort(channel);
            return false;
        }
        channel.attr(COUNTED_ADDRESS).set(address);
        channel.closeFuture().addListener(f -> done(channel));
        return true;
    }

    /**
     * What a failed TLS handshake expected and found: bytes that are no TLS record at all (an HTTP request
     * on a TLS port, an SJ frame in the clear) are named by their first bytes; any other failure by its
     * innermost reason ({@link #reason}).
     */
    public static String failure(Throwable cause) {
        if (cause instanceof io.netty.handler.ssl.NotSslRecordException && cause.getMessage() != null) {
            // Netty's message ends with a hex dump of everything received: name the first bytes only.
            String message = cause.getMessage();
            String hex = message.substring(message.lastIndexOf(' ') + 1);
            int bytes = Math.min(hex.length() / 2, SHOWN_BYTES);
            byte[] found = new byte[bytes];
            try {
                for (int i = 0; i < bytes; i++) {
                    found[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
                }
            } catch (NumberFormatException e) {
                return "expected a TLS record (a ClientHello), found bytes that are none";
            }
            return "expected a TLS record (a ClientHello), found " + describe(found)
                    + (hex.length() / 2 > bytes ? " …" : "");
        }
        return reason(cause);
    }

    /** Bytes in hex, followed by their text when all are printable ASCII. */
    public static String describe(byte[] found) {
        StringBuilder hex = new StringBuilder();
        boolean printable = true;
        for (byte b : found) {
            hex.append(hex.isEmpty() ? "" : " ").append(String.format("%02x", b & 0xff));
            printable &= b >= 0x20 && b < 0x7f;
        }
        return hex + (printable ? " (\"" + new String(found, StandardCharsets.US_ASCII) + "\")" : "");
    }

    /** The innermost message of a TLS failure, with what it means for the peer in front. */
    public static String reason(Throwable cause) {
        Throwable innermost = cause;
        boolean untrusted = false;
        boolean closedChannel = false;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            innermost = t;
            untrusted |= t instanceof java.security.cert.CertPathBuilderException
                    || t instanceof java.security.cert.CertPathValidatorException;
            closedChannel |= t instanceof java.nio.channels.ClosedChannelException;
        }
        String message = innermost.getMessage() == null ? innermost.getClass().getSimpleName() : innermost.getMessage();
        if (untrusted) {
            return "the peer's certificate is not trusted (" + message + ")";
        }
        if (message.contains("subject alternative") || message.contains("No name matching")) {
            return "the server's certificate does not name the host connected to (" + message + ")";
        }
        if (message.contains("certificate_required") || message.contains("bad_certificate")
                || message.contains("certificate_unknown") || message.contains("unknown_ca")) {
            return "the peer rejected our certificate or its absence (" + message + ")";
        }
        if (closedChannel) {
            return "the peer closed the connection during the handshake (is it a TLS acceptor?)";
        }
        return message;
    }
}
