package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Serves the HTTP requests of one channel of a tunnel server (direct acceptor or relay): uploads
 * ({@code POST .../up}; with {@code ack=N} also a poll, wire 2), long polls ({@code GET .../down}),
 * WebSocket upgrades ({@code GET .../ws}),
 * and hands every other path to the {@link Routes}. One request at a time: a request that arrives
 * while one is held closes the connection, so a client cannot pile requests up behind a held one.
 */
final class TunnelHttpHandler extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(TunnelHttpHandler.class.getName());
    private static final java.util.concurrent.atomic.AtomicLong INTERNAL_ERRORS = new java.util.concurrent.atomic.AtomicLong();

    private final Routes routes;
    private final HttpSettings settings;
    private final boolean secure;
    private final BodyBudget bodies;
    /** The connection's lean decoder: a request it decoded is answered through it. */
    private final LeanRequestDecoder lean;
    /** Told after each answer: the connection is idle until its next request (for the eviction at the limit). */
    private final Runnable answered;
    private Exchange current;
    /** Run after each answer (see {@link #readOnIfWritable}); made once. */
    private Runnable readOn;
    private boolean waitingForWritable;
    /** The held poll's deadline, on the channel's loop (no timer per held request: see {@link LazyDeadline}). */
    private LazyDeadline heldDeadline;
    /** The poll the deadline is for (the latest held; it may have been answered since). */
    private HeldPoll held;

    TunnelHttpHandler(Routes routes, HttpSettings settings, boolean secure, BodyBudget bodies, LeanRequestDecoder lean,
            Runnable answered) {
        this.routes = routes;
        this.answered = answered;
        this.lean = lean;
        this.settings = settings;
        this.secure = secure;
        this.bodies = bodies;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (current != null && !current.isDone()) {
            request.release(); // pipelining while a request is held: not an SJ client
            ctx.close();
            return;
        }
        if (!request.decoderResult().isSuccess()) {
            // The decoder discards everything after a malformed request: answer, then close.
            HttpUtil.setKeepAlive(request, false);
        }
        if (heldDeadline != null) {
            heldDeadline.clear(); // the request before was answered: its deadline is met
        }
        if (readOn == null) {
            readOn = () -> readOnIfWritable(ctx); // one per channel, not one per request
        }
        // The decoder hands on each request before it looks at the next bytes: if it is lean now, it
        // decoded this request.
        ChannelHandlerContext raw = lean != null && lean.isLean() ? lean.rawContext() : null;
        Exchange exchange = new Exchange(ctx, request, request.decoderResult().isSuccess() ? request.uri() : "/", readOn,
                raw);
        current = exchange;
        if (!request.decoderResult().isSuccess()) {
            exchange.fail(HttpResponseStatus.BAD_REQUEST, Wire.malformedRequest(request.decoderResult().cause()));
        } else {
            try {
                dispatch(ctx, exchange);
            } catch (BadRequestException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "bad request " + request.method() + " "
                        + TunnelConnection.abbreviate(request.uri()) + ": " + e.getMessage());
                exchange.fail(HttpResponseStatus.BAD_REQUEST, e.getMessage());
            } catch (RuntimeException e) {
                internalError(request, e);
                exchange.fail(HttpResponseStatus.INTERNAL_SERVER_ERROR,
                        "internal error: the server failed to serve this request (its log has the details)");
            }
        }
        // The channel keeps reading while a request is held (a poll, an upload waiting for room): a
        // request arriving meanwhile is a pipelining client and closes the connection (above), and
        // not toggling autoRead saves two epoll_ctl calls per request.
    }

    /**
     * A request this side failed to serve (a bug, not the client's mistake): the first and then each
     * power of two with the stack trace at WARNING, the rest at DEBUG, so that a client repeating the
     * request cannot flood the log.
     */
    private static void internalError(FullHttpRequest request, RuntimeException e) {
        long count = INTERNAL_ERRORS.incrementAndGet();
        boolean loud = (count & (count - 1)) == 0;
        String what = "failed to serve " + request.method() + " " + TunnelConnection.abbreviate(request.uri())
                + " (" + count + " internal errors so far)";
        if (loud) {
            LOG.log(System.Logger.Level.WARNING, what, e);
        } else {
            LOG.log(System.Logger.Level.DEBUG, () -> what + ": " + e);
        }
    }

    private void dispatch(ChannelHandlerContext ctx, Exchange exchange) {
        String uri = exchange.request().uri();
        if (!Wire.rawPathStartsWith(uri, Wire.SESSION)) {
            routes.route(exchange);
            return;
        }
        // The per-message requests are read from the URI as sent (no QueryStringDecoder per request).
        int from = Wire.SESSION.length();
        int end = Wire.pathEnd(uri);
        int slash = uri.indexOf('/', from);
        if (slash < 0 || slash > end) {
            slash = end;
        }
        String token = uri.substring(from, slash);
        String op = slash == end ? "" : Wire.op(uri, slash + 1, end);
        Half half = Wire.isToken(token) ? routes.half(token) : null;
        if (half == null) {
            exchange.fail(HttpResponseStatus.NOT_FOUND, "no such connection (unknown, expired or closed)");
            return;
        }
        io.netty.channel.EventLoop home = half.home();
        if (home != null && ctx.channel().eventLoop() != home) {
            moveTo(ctx, home, () -> serve(ctx, half, op, exchange));
            return;
        }
        serve(ctx, half, op, exchange);
    }

    /**
     * Moves the channel to {@code home} (a relay pair's loop), then runs {@code then} there. Each of a
     * client's connections moves at most once (it serves one half for its life). Nothing is read while
     * it moves, and the request being served waits; the connection's guard takes its deadlines to the new
     * loop on its next event.
     */
    private void moveTo(ChannelHandlerContext ctx, io.netty.channel.EventLoop home, Runnable then) {
        io.netty.channel.Channel channel = ctx.channel();
        channel.deregister().addListener(left -> {
            if (!left.isSuccess()) {
                channel.close();
                return;
            }
            home.register(channel).addListener(joined -> {
                if (!joined.isSuccess()) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "could not move " + channel + " to its pair's loop: "
                            + joined.cause());
                    channel.close();
                    return;
                }
                try {
                    then.run();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "failed to serve a moved request", e);
                    channel.close();
                }
            });
        });
    }

    private void serve(ChannelHandlerContext ctx, Half half, String op, Exchange exchange) {
        if (half.home() != null && !half.home().inEventLoop()) {
            half.servedAway();
        }
        HttpMethod method = exchange.request().method();
        if (half.hasWebSocket() && (op.equals("up") || op.equals("down") || op.equals("ws"))) {
            // The half's one client is on its WebSocket: this request is another client with the token.
            exchange.fail(HttpResponseStatus.CONFLICT, "a WebSocket carries this connection already; a connection has"
                    + " one client (expected no " + op + " request for it)");
            return;
        }
        switch (op) {
            case "up" -> {
                if (!method.equals(HttpMethod.POST)) {
                    exchange.fail(HttpResponseStatus.METHOD_NOT_ALLOWED, "uploads are POSTs");
                } else {
                    upload(half, exchange);
                }
            }
            case "down" -> {
                if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.POST)) {
                    exchange.fail(HttpResponseStatus.METHOD_NOT_ALLOWED, "polls are GETs");
                } else {
                    poll(half, exchange);
                }
            }
            case "ws" -> upgrade(ctx, half, exchange);
            default -> exchange.fail(HttpResponseStatus.NOT_FOUND, "no operation '" + op + "' (expected up, down or ws)");
        }
    }

    // ---- uploads -----------------------------------------------------------------------------

    private void upload(Half half, Exchange exchange) {
        String uri = exchange.request().uri();
        long offset = Wire.rawLongParam(uri, "offset");
        if (offset < 0) {
            exchange.fail(HttpResponseStatus.BAD_REQUEST, "an upload needs offset=N (the stream offset of its first byte)");
            return;
        }
        boolean fin = Wire.rawFlag(uri, "fin");
        boolean close = Wire.rawFlag(uri, "close");
        ByteBuf body = exchange.request().content().retain();
        half.enter();
        exchange.onAbandon(() -> {
            body.release();
            half.exit();
        });
        tryAppend(half, exchange, body, offset, fin, close);
    }

    private void tryAppend(Half half, Exchange exchange, ByteBuf body, long offset, boolean fin, boolean close) {
        if (exchange.isDone()) {
            return; // abandoned: the body was released
        }
        int length = body.readableBytes();
        ByteStream.Append result = half.in().append(body, offset, fin);
        switch (result) {
            case ACCEPTED -> {
                if (close) {
                    half.closedByClient();
                }
                long ack = close ? -1 : Wire.rawLongParam(exchange.request().uri(), "ack");
                if (ack >= 0) {
                    // Wire 2: the upload is also the client's poll, answered with the bytes waiting for
                    // it (at once, or when they come), so that an exchange is one request, not two.
                    exchange.onAbandon(null); // the stream owns the body now
                    half.out().releaseDataWaiter();
                    new HeldPoll(half, exchange, ack, window(exchange)).tryRead();
                    return;
                }
                answerEmpty(half, exchange);
            }
            case FULL -> {
                Consumer<Boolean> retry = ready -> exchange.executor().execute(() -> {
                    if (ready) {
                        tryAppend(half, exchange, body, offset, fin, close);
                    } else if (!exchange.isDone()) {
                        body.release();
                        answer(half, exchange, Wire.text(exchange.version(), HttpResponseStatus.SERVICE_UNAVAILABLE,
                                "a newer upload replaced this one"));
                    }
                });
                if (!half.in().awaitSpace(retry, length)) {
                    exchange.executor().execute(() -> tryAppend(half, exchange, body, offset, fin, close));
                }
            }
            case BUSY -> {
                body.release();
                answer(half, exchange, Wire.text(exchange.version(), HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "the relay's buffer memory is spent; retry later"));
            }
            case GAP -> answer(half, exchange, Wire.text(exchange.version(), HttpResponseStatus.CONFLICT,
                    "upload offset " + offset + " is beyond the " + half.in().written() + " bytes received: bytes were lost"));
            case CLOSED -> answer(half, exchange, Wire.text(exchange.version(), HttpResponseStatus.GONE,
                    String.valueOf(half.in().refusal())));
        }
    }

    // ---- long polls --------------------------------------------------------------------------

    private void poll(Half half, Exchange exchange) {
        long ack = Wire.rawLongParam(exchange.request().uri(), "ack");
        if (ack < 0) {
            exchange.fail(HttpResponseStatus.BAD_REQUEST, "a poll needs ack=N (the bytes received so far)");
            return;
        }
        half.enter();
        half.out().releaseDataWaiter(); // a poll held before (the client's older request) is answered now
        new HeldPoll(half, exchange, ack, window(exchange)).tryRead();
    }

    /** The most bytes an answer may carry: a response's worth, or the client's {@code window} (0: none). */
    private int window(Exchange exchange) {
        long window = Wire.rawLongParam(exchange.request().uri(), "window");
        return (int) Math.min(settings.responseBytes(), window < 0 ? Long.MAX_VALUE : window);
    }

    /**
     * A poll waiting for bytes: one waiter object for the poll's whole life (no allocation per wake),
     * run inline when the bytes arrive on the poll's own event loop (the relay's other half uploading
     * on the same loop), else handed to that loop.
     */
    private final class HeldPoll implements Consumer<Boolean> {
        private final Half half;
        private final Exchange exchange;
        private final long ack;
        private final int max;
        private boolean armed;

        HeldPoll(Half half, Exchange exchange, long ack, int max) {
            this.half = half;
            this.exchange = exchange;
            this.ack = ack;
            this.max = max;
        }

        void tryRead() {
            if (exchange.isDone()) {
                return;
            }
            ByteStream.Chunk chunk = half.out().read(ack, max);
            if (chunk != null) {
                if (chunk.failure() != null) {
                    answer(half, exchange, Wire.text(exchange.version(), HttpResponseStatus.GONE, chunk.failure()));
                    return;
                }
                if (exchange.isDone()) {
                    chunk.bytes().release();
                    return;
                }
                exchange.onAbandon(null);
                half.exit();
                exchange.respondBytes(chunk.bytes(), chunk.offset(), chunk.fin());
                return;
            }
            if (max == 0) {
                answerEmpty(half, exchange);
                return;
            }
            if (!half.out().awaitData(this)) {
                exchange.executor().execute(this::tryRead);
                return;
            }
            if (!armed) {
                armed = true;
                exchange.onAbandon(() -> {
                    half.out().cancelDataWaiter(this);
                    half.exit();
                });
                held = this;
                heldDeadline(exchange).set(TimeUnit.MILLISECONDS.toNanos(settings.pollMillis()));
            }
        }

        /** The poll interval passed: answers "nothing new" if still waiting. */
        void expired() {
            if (!exchange.isDone() && half.out().cancelDataWaiter(this)) {
                answerEmpty(half, exchange);
            }
        }

        @Override
        public void accept(Boolean ready) {
            if (exchange.executor().inEventLoop()) {
                woken(ready);
            } else {
                exchange.executor().execute(() -> woken(ready));
            }
        }

        private void woken(boolean ready) {
            if (ready) {
                tryRead();
            } else {
                answerEmpty(half, exchange);
            }
        }
    }

    /** The held-poll deadline on the loop serving {@code exchange} (a relayed channel may have moved loops). */
    private LazyDeadline heldDeadline(Exchange exchange) {
        LazyDeadline d = heldDeadline;
        if (d == null || d.loop() != exchange.executor()) {
            if (d != null) {
                d.cancel();
            }
            d = new LazyDeadline(exchange.executor(), () -> {
                HeldPoll h = held;
                held = null;
                if (h != null) {
                    h.expired();
                }
            });
            heldDeadline = d;
        }
        return d;
    }

    /** Held-poll timers scheduled so far on this channel (for tests). */
    int heldTimersScheduled() {
        return heldDeadline == null ? 0 : heldDeadline.timersScheduled();
    }

    /** Answers "nothing new" (204), unless the exchange is over. */
    private static void answerEmpty(Half half, Exchange exchange) {
        if (exchange.isDone()) {
            return;
        }
        exchange.onAbandon(null);
        half.exit();
        exchange.empty();
    }

    private static void answer(Half half, Exchange exchange, FullHttpResponse response) {
        if (exchange.isDone()) {
            response.release();
            return;
        }
        exchange.onAbandon(null);
        half.exit();
        exchange.respond(response);
    }

    // ---- WebSocket ---------------------------------------------------------------------------

    private void upgrade(ChannelHandlerContext ctx, Half half, Exchange exchange) {
        FullHttpRequest request = exchange.request();
        if (!request.headers().containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)
                || !request.headers().contains(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true)) {
            exchange.fail(HttpResponseStatus.BAD_REQUEST, "expected a WebSocket upgrade (the path to this server"
                    + " does not pass Upgrade headers: use long polling)");
            return;
        }
        String url = (secure ? "wss://" : "ws://") + request.headers().get(HttpHeaderNames.HOST, "localhost")
                + request.uri().substring(0, Wire.pathEnd(request.uri())); // as sent: only the handshake's own answer uses it
        WebSocketServerHandshaker handshaker = new WebSocketServerHandshakerFactory(url, null, false,
                settings.maxRequestBytes()).newHandshaker(request);
        if (handshaker == null) {
            exchange.fail(HttpResponseStatus.UPGRADE_REQUIRED, "unsupported WebSocket version (expected 13)");
            return;
        }
        if (!half.claimWebSocket()) {
            exchange.fail(HttpResponseStatus.CONFLICT, "a WebSocket carries this connection already");
            return;
        }
        FullHttpRequest retained = request.retain();
        if (!exchange.takeOver()) {
            retained.release();
            half.unclaimWebSocket();
            return;
        }
        bodies.requestDone();
        half.enter();
        ctx.channel().config().setAutoRead(true);
        handshaker.handshake(ctx.channel(), retained).addListener(f -> {
            retained.release();
            if (f.isSuccess()) {
                ctx.pipeline().replace(this, "sj-ws", new WsServerHandler(half, settings));
                routes.attached(half);
            } else {
                half.unclaimWebSocket();
                half.exit();
                ctx.close();
            }
        });
    }

    /**
     * After an answer: reads the next request only if the client takes its answers (the channel is
     * writable); a client that sends requests and never reads the responses would otherwise make the
     * server buffer them without bound. Reading resumes when the channel drains.
     */
    private void readOnIfWritable(ChannelHandlerContext ctx) {
        bodies.requestDone();
        answered.run();
        if (ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(true);
        } else {
            ctx.channel().config().setAutoRead(false);
            waitingForWritable = true;
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (waitingForWritable && ctx.channel().isWritable()) {
            waitingForWritable = false;
            ctx.channel().config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Exchange open = current;
        if (open != null) {
            open.abandon();
        }
        if (heldDeadline != null) {
            heldDeadline.cancel();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(System.Logger.Level.DEBUG, () -> "closing HTTP channel " + ctx.channel() + ": " + cause);
        ctx.close();
    }
}
