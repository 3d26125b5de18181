package org.sessionj.transport.http.internal;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.sessionj.runtime.spi.HandshakeSlots;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.transport.netty.internal.EventLoops;
import org.sessionj.transport.netty.internal.HandshakesPerAddress;
import org.sessionj.transport.netty.internal.TlsHandshakes;

/**
 * An HTTP(S) server for tunnelled connections (a direct acceptor's, or the relay's), on the shared
 * Netty event loops. It defends itself: at most {@code maxConnections} at once, a request must
 * arrive whole within {@code requestMillis} (a client dribbling headers is answered 408 and dropped),
 * a connection with no traffic for a poll interval and a half is closed, and a request body is at
 * most a segment (413 above). Over HTTPS its TLS handshakes are bounded as the {@code tls} transport's
 * are ({@link TlsHandshakes}): a pending-handshake slot each from accept to the end of the handshake,
 * a deadline, a cap per source address, failures counted, and their cryptography off the event loops.
 *
 * <p>One source address may have at most {@code sessionj.http.maxUnfinishedPerAddress} (64) connections whose
 * request has not arrived whole (from the accept, or the first byte of a later request, to the request's end):
 * the next is closed at once. Without it, one address that sent a request head a byte every few seconds on
 * 4,096 connections held every connection of the relay for its 30 s request deadline, again and again, and
 * every other client was refused (hostile H4). A real client's request arrives in one segment, so it is in
 * that state for microseconds; a WebSocket, once upgraded, no longer counts (its frames have their deadline).
 *
 * <p>At its connection limit a newcomer first drops a connection whose request stalled; when none has, it evicts
 * kept-alive connections idle between requests, from the address that has the most of them ({@link StalledHeads}):
 * one address holding 4,096 kept-alive connections with a cheap request each per 25 s no longer locks every other
 * client out (hostile18 H1). Only when no connection is stalled or idle (every one is sending a request, has one
 * held, or is a WebSocket) is the newcomer refused.
 */
public final class TunnelServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TunnelServer.class.getName());
    private static final int MAX_INITIAL_LINE = 4096;
    private static final int MAX_HEADERS = 8192;
    private static final long BIND_TIMEOUT_SECONDS = 30;

    private final Channel serverChannel;
    private final int port;
    /** The bounds on TLS handshakes (also over plain HTTP, where no channel has a TLS handler to bound). */
    private final TlsHandshakes handshakes;
    /** Connections with an unfinished request, per source address. */
    private final HandshakesPerAddress unfinished;
    /** The open connections, for the drop of a stalled one at the limit. */
    private final StalledHeads heads;

    /** The default of {@code sessionj.http.maxUnfinishedPerAddress}. */
    public static final int DEFAULT_UNFINISHED_PER_ADDRESS = 64;

    private TunnelServer(Channel serverChannel, int port, TlsHandshakes handshakes, HandshakesPerAddress unfinished,
            StalledHeads heads) {
        this.serverChannel = serverChannel;
        this.port = port;
        this.handshakes = handshakes;
        this.unfinished = unfinished;
        this.heads = heads;
    }

    /** As {@link #bind(InetSocketAddress, SslContext, HttpSettings, Routes, int, int, long, Supplier)} without handshake slots. */
    public static TunnelServer bind(InetSocketAddress address, SslContext ssl, HttpSettings settings, Routes routes,
            int maxConnections, int requestMillis, long bodyBytes) throws IOException {
        return bind(address, ssl, settings, routes, maxConnections, requestMillis, bodyBytes, () -> null);
    }

    /**
     * Listens on {@code address} ({@code null} host: every interface; port 0: a free one).
     *
     * @param ssl the server TLS context, or null for plain HTTP
     * @param bodyBytes request bodies held at once (received but not yet answered), at most, over all
     *        connections; a body past it is answered 503 and its connection closed
     * @param slots the pending-handshake slots a TLS connection holds until its TLS handshake ends (asked
     *        at each accept: a server socket's come after the bind), or null for none
     * @throws IOException if the port cannot be bound
     */
    public static TunnelServer bind(InetSocketAddress address, SslContext ssl, HttpSettings settings, Routes routes,
            int maxConnections, int requestMillis, long bodyBytes, Supplier<HandshakeSlots> slots) throws IOException {
        return bind(address, ssl, settings, routes, maxConnections, requestMillis, bodyBytes, slots, System::nanoTime);
    }

    /**
     * As {@link #bind(InetSocketAddress, SslContext, HttpSettings, Routes, int, int, long, Supplier)}, with the times the
     * drops at the connection limit go by (how long a request has been unfinished, a connection idle) read from
     * {@code clock} ({@code System.nanoTime()} but in tests, which drive it: no test waits for real seconds to pass).
     */
    static TunnelServer bind(InetSocketAddress address, SslContext ssl, HttpSettings settings, Routes routes,
            int maxConnections, int requestMillis, long bodyBytes, Supplier<HandshakeSlots> slots,
            java.util.function.LongSupplier clock) throws IOException {
        Budget bodies = new Budget(bodyBytes);
        AtomicReference<Channel> listening = new AtomicReference<>();
        String transport = ssl == null ? "http" : "https";
        AtomicReference<TlsHandshakes> self = new AtomicReference<>();
        TlsHandshakes handshakes = new TlsHandshakes(transport, TlsHandshakes::failure,
                () -> listening.get() != null && !listening.get().isOpen(),
                () -> updateAccepting(listening.get(), self.get()));
        self.set(handshakes);
        EventLoops loops = EventLoops.shared(true);
        AtomicInteger open = new AtomicInteger();
        HandshakesPerAddress unfinished = new HandshakesPerAddress(SystemSettings.system()
                .integer("http.maxUnfinishedPerAddress", DEFAULT_UNFINISHED_PER_ADDRESS),
                "sessionj.http.maxUnfinishedPerAddress");
        StalledHeads heads = new StalledHeads(() -> transport + " port " + (listening.get() == null ? "?"
                : ((InetSocketAddress) listening.get().localAddress()).getPort()), maxConnections, requestMillis, clock);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loops.group())
                .channel(loops.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        java.net.InetAddress from = channel.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
                        if (from != null && !unfinished.tryEnter(from)) {
                            refusedUnfinished(from, unfinished);
                            channel.close();
                            return;
                        }
                        // At the limit a connection whose request stalled goes for the newcomer, else idle ones of
                        // the address with most idle, else the newcomer.
                        if (open.incrementAndGet() > maxConnections && !heads.dropOldestStalled() && !heads.evictIdle()) {
                            open.decrementAndGet();
                            if (from != null) {
                                unfinished.leave(from);
                            }
                            LOG.log(System.Logger.Level.DEBUG, "refusing {0}: {1} connections open already",
                                    channel.remoteAddress(), maxConnections);
                            channel.close();
                            return;
                        }
                        channel.closeFuture().addListener(f -> open.decrementAndGet());
                        if (ssl != null) {
                            channel.pipeline().addLast(ssl.newHandler(channel.alloc(), TlsHandshakes.delegatedTasks()));
                        }
                        Guard guard = new Guard(requestMillis, settings, unfinished, from, channel, heads);
                        heads.opened(guard);
                        channel.closeFuture().addListener(f -> {
                            heads.closed(guard);
                            guard.leaveUnfinished();
                        });
                        BodyBudget bodyBudget = new BodyBudget(bodies);
                        LeanRequestDecoder lean = settings.leanCodec() ? new LeanRequestDecoder(settings.maxRequestBytes()) : null;
                        channel.pipeline().addLast(guard.front());
                        if (lean != null) {
                            channel.pipeline().addLast(lean);
                        }
                        channel.pipeline().addLast(
                                new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADERS, 64 * 1024),
                                bodyBudget,
                                new RequestAssembler(settings.maxRequestBytes(), guard::requestEnded),
                                new TunnelHttpHandler(routes, settings, ssl != null, bodyBudget, lean, guard::answered));
                        if (ssl != null) {
                            handshakes.admit(channel, slots.get());
                        }
                    }
                });
        ChannelFuture bind = bootstrap.bind(address);
        listening.set(bind.channel());
        CompletableFuture<Void> bound = new CompletableFuture<>();
        bind.addListener(f -> {
            if (f.isSuccess()) {
                bound.complete(null);
            } else {
                bound.completeExceptionally(f.cause());
            }
        });
        try {
            // Bounded: a blocked event loop must not hang the caller for ever (it once did, in a test).
            bound.get(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            bind.channel().close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding HTTP port " + address.getPort());
        } catch (TimeoutException e) {
            bind.channel().close();
            throw new IOException("binding HTTP port " + address.getPort() + " took more than " + BIND_TIMEOUT_SECONDS
                    + " s: the event loop it was given is blocked");
        } catch (ExecutionException e) {
            throw new IOException("cannot listen on HTTP port " + address.getPort() + ": " + e.getCause().getMessage(),
                    e.getCause());
        }
        TunnelServer server = new TunnelServer(bind.channel(), ((InetSocketAddress) bind.channel().localAddress()).getPort(),
                handshakes, unfinished, heads);
        org.sessionj.runtime.spi.support.ListenerPreload.afterListen(); // before peers can use up the descriptors
        return server;
    }

    /**
     * Accepts while no accepted connection waits for a TLS handshake slot; set on the listening channel's
     * event loop, from the latest state, so that two changes racing cannot leave it paused.
     */
    private static void updateAccepting(Channel listening, TlsHandshakes handshakes) {
        if (listening == null) {
            return; // not bound yet: the first accept sees the state
        }
        try {
            listening.eventLoop().execute(() -> listening.config().setAutoRead(!handshakes.waiting()));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the event loops are shut down: nothing is accepted any more anyway
        }
    }

    /** Connections closed so far because their address had its most connections in a TLS handshake. */
    public long refusedPerAddress() {
        return handshakes.refusedPerAddress();
    }

    /** Connections closed so far because their address had its most connections with an unfinished request. */
    public long refusedUnfinishedPerAddress() {
        return unfinished.refused();
    }

    /**
     * Connections closed so far because their request had stalled (unfinished for 5 s, or half the request deadline)
     * when the server had its limit of connections open and another came.
     */
    public long droppedStalled() {
        return heads.dropped();
    }

    /**
     * Connections closed so far because they were idle between requests, from the address with the most idle ones,
     * when the server had its limit of connections open and another came.
     */
    public long evictedIdle() {
        return heads.evicted();
    }

    /** Connections idle between requests now (for tests). */
    int idleConnections() {
        return heads.idle();
    }

    /** Connections from {@code address} whose request has not arrived whole, now. */
    public int unfinishedRequestsFrom(java.net.InetAddress address) {
        return unfinished.held(address);
    }

    /** Logs a connection closed at its address's cap: the first time, then at each power of two. */
    private static void refusedUnfinished(java.net.InetAddress from, HandshakesPerAddress unfinished) {
        long n = unfinished.refused();
        System.Logger.Level level = (n & (n - 1)) == 0 ? System.Logger.Level.INFO : System.Logger.Level.DEBUG;
        LOG.log(level, () -> "closed an HTTP connection from " + from.getHostAddress() + ": that address has "
                + unfinished.cap() + " connections whose request has not arrived whole already"
                + " (sessionj.http.maxUnfinishedPerAddress; " + n + " refused so far)");
    }

    /** Whether the listening channel accepts connections now (false while a connection waits for a TLS handshake slot). */
    public boolean accepting() {
        return serverChannel.isOpen() && serverChannel.config().isAutoRead();
    }

    /** A connection with no traffic for a poll interval and a half plus 5 s is closed. */
    static long idleMillis(HttpSettings settings) {
        return settings.pollMillis() + settings.pollMillis() / 2 + 5_000L;
    }

    /** The TCP port listened on. */
    public int port() {
        return port;
    }

    /**
     * Stops listening (connections already open are closed by their owners). Waits for the port to be
     * free, except on an event loop thread: there it must not block, as the loop that closes the port
     * may be waiting for this one (two idle direct acceptors whose sweeps closed each other's ports on
     * two loops at once deadlocked both loops, and every later bind on them hung).
     */
    @Override
    public void close() {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        serverChannel.close().addListener(f -> closed.complete(null));
        if (onAnEventLoop()) {
            return;
        }
        try {
            closed.get(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(System.Logger.Level.DEBUG, "HTTP port {0} did not close within {1} s", port, BIND_TIMEOUT_SECONDS);
        }
    }

    /** The event loop the listening channel runs on (for tests). */
    io.netty.channel.EventLoop eventLoop() {
        return serverChannel.eventLoop();
    }

    /** Whether the calling thread is one of the shared event loops (which must never wait for another). */
    static boolean onAnEventLoop() {
        for (io.netty.util.concurrent.EventExecutor loop : EventLoops.shared(true).group()) {
            if (loop.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Request deadline and idle connections: a request must be complete within {@code requestMillis}
     * of its first byte (a client dribbling headers is answered 408 and dropped), and so must a WebSocket
     * frame (a client trickling a frame that never ends is dropped; time while this side does not read,
     * being behind, is not counted against it); a connection idle (nothing read, nothing written) for
     * {@code idleMillis} is closed, WebSocket ones included. The front half sees bytes before the HTTP
     * or WebSocket decoder (a request that never finishes its headers yields no request object); the
     * {@link RequestAssembler} reports the decoded request's or frame's end.
     *
     * <p>Both deadlines are {@link LazyDeadline}s: a request or a write only stores a time. Before, each
     * request scheduled and cancelled a timer of its own, and Netty's idle handler put a listener on
     * every write's promise (a promise and a listener array per answer).
     */
    private static final class Guard implements StalledHeads.Head {
        private final int requestMillis;
        private final Channel channel;
        /** Since when the current request has been unfinished ({@link System#nanoTime}); 0: none is. */
        private volatile long unfinishedSince;
        private final long idleNanos;
        private final HandshakesPerAddress unfinished;
        /** The peer's address (null: not an IP connection, not counted). */
        private final java.net.InetAddress from;
        /** Where the times come from ({@link StalledHeads#now}). */
        private final StalledHeads heads;
        /** Since when the connection has been idle between requests ({@link StalledHeads#now}); 0: it is not. */
        private volatile long idleSince;
        /** On the channel's loop: whether this connection counts toward its address's unfinished requests. */
        private boolean counted;
        /** Both deadlines live on the channel's loop; a channel moved to another loop gets new ones. */
        private LazyDeadline request;
        private LazyDeadline idle;
        private boolean upgraded;

        /** {@code from}'s connection, counted as unfinished (by the caller, at its accept) until its first request ends. */
        Guard(int requestMillis, HttpSettings settings, HandshakesPerAddress unfinished, java.net.InetAddress from,
                Channel channel, StalledHeads heads) {
            this.requestMillis = requestMillis;
            this.channel = channel;
            this.heads = heads;
            this.unfinishedSince = nonZero(heads.now());
            this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis(settings));
            this.unfinished = unfinished;
            this.from = from;
            this.counted = from != null;
        }

        private static long nonZero(long nanos) {
            return nanos == 0 ? 1 : nanos;
        }

        @Override
        public long unfinishedSince() {
            return unfinishedSince;
        }

        @Override
        public void drop() {
            channel.close();
        }

        @Override
        public String peer() {
            return String.valueOf(channel.remoteAddress());
        }

        @Override
        public long idleSince() {
            return idleSince;
        }

        @Override
        public java.net.InetAddress from() {
            return from;
        }

        /**
         * A request was answered (on the channel's loop): the connection is idle until its next request starts, unless
         * that has started already (a pipelined one) or it is a WebSocket now. One clock read and a volatile write per
         * answer, for the eviction of idle connections at the limit.
         */
        void answered() {
            if (!upgraded && (request == null || !request.isSet())) {
                idleSince = nonZero(heads.now());
            }
        }

        /** The connection no longer has an unfinished request (its request ended, it upgraded, or it closed). */
        void leaveUnfinished() {
            unfinishedSince = 0;
            if (counted) {
                counted = false;
                unfinished.leave(from);
            }
        }

        ChannelDuplexHandler front() {
            return new ChannelDuplexHandler() {
                @Override
                public void channelActive(ChannelHandlerContext ctx) throws Exception {
                    onLoop(ctx);
                    idle.set(idleNanos);
                    super.channelActive(ctx);
                }

                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    onLoop(ctx);
                    idle.set(idleNanos);
                    if (!upgraded && ctx.pipeline().get(HttpServerCodec.class) == null) {
                        upgraded = true; // a WebSocket now: frames instead of requests
                        idleSince = 0;
                        request.clear();
                        leaveUnfinished();
                    }
                    if (!upgraded && !request.isSet() && !counted && from != null) {
                        // A later request starts: it counts toward its address's unfinished ones again.
                        if (!unfinished.tryEnter(from)) {
                            io.netty.util.ReferenceCountUtil.release(msg);
                            refusedUnfinished(from, unfinished);
                            ctx.close();
                            return;
                        }
                        counted = true;
                    }
                    if (!request.isSet()) {
                        // A request, or over a WebSocket the frame these bytes start, must be whole in time.
                        request.set(TimeUnit.MILLISECONDS.toNanos(requestMillis));
                        if (!upgraded && unfinishedSince == 0) {
                            unfinishedSince = nonZero(heads.now());
                        }
                        if (idleSince != 0) {
                            idleSince = 0; // busy until it is answered
                        }
                    }
                    ctx.fireChannelRead(msg);
                }

                @Override
                public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                    if (idle != null && idle.loop().inEventLoop()) {
                        idle.set(idleNanos);
                    }
                    ctx.write(msg, promise);
                }

                @Override
                public void channelInactive(ChannelHandlerContext ctx) throws Exception {
                    if (request != null) {
                        request.cancel();
                        idle.cancel();
                    }
                    super.channelInactive(ctx);
                }
            };
        }

        /** The request arrived whole: its deadline is met. */
        void requestEnded() {
            if (request != null) {
                request.clear();
            }
            leaveUnfinished();
        }

        /** Makes the deadlines live on the channel's current loop (it may have moved to its pair's). */
        private void onLoop(ChannelHandlerContext ctx) {
            if (request != null && request.loop() == ctx.executor()) {
                return;
            }
            boolean requestSet = request != null && request.isSet();
            if (request != null) {
                request.cancel();
                idle.cancel();
            }
            request = new LazyDeadline(ctx.executor(), () -> expire(ctx));
            idle = new LazyDeadline(ctx.executor(), () -> {
                LOG.log(System.Logger.Level.DEBUG, "closing idle HTTP connection {0}", ctx.channel().remoteAddress());
                ctx.close();
            });
            if (requestSet) {
                request.set(TimeUnit.MILLISECONDS.toNanos(requestMillis));
            }
        }

        private void expire(ChannelHandlerContext front) {
            if (upgraded && !front.channel().config().isAutoRead()) {
                // Not reading because this side is behind (its stream full, its writes held): the frame
                // cannot finish meanwhile, and that is no fault of the peer's. Its time starts again.
                request.set(TimeUnit.MILLISECONDS.toNanos(requestMillis));
                return;
            }
            LOG.log(System.Logger.Level.DEBUG, "{0} did not send a whole {1} within {2} ms; dropping it",
                    front.channel().remoteAddress(), upgraded ? "WebSocket frame" : "request", requestMillis);
            if (front.pipeline().get(HttpServerCodec.class) != null) {
                // From the tail, through the codec's encoder.
                front.channel().writeAndFlush(Wire.text(HttpVersion.HTTP_1_1, HttpResponseStatus.REQUEST_TIMEOUT,
                        "the request did not arrive whole in time")).addListener(ChannelFutureListener.CLOSE);
            } else {
                front.close();
            }
        }
    }
}
