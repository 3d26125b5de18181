package org.sessionj.transport.http.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sessionj.transport.netty.internal.EventLoops;

/**
 * One kept-alive HTTP/1.1 client connection to an {@link Endpoint}, one request at a time. It
 * (re)connects when a request finds it closed (a proxy may close idle connections), and every request
 * has a deadline. Everything runs on one event loop, which also runs the callers' continuations.
 */
public final class HttpClientChannel {
    private final Endpoint endpoint;
    private final EventLoop loop;
    private final EventLoops loops;
    /** The Host header's value (built once, not per request). */
    private final String authority;
    private Channel channel;
    /**
     * The connection being made (TCP connect, then the TLS handshake for https) until it is ready; closed
     * with the request it was made for when that fails, so that a server that accepts and never answers the
     * ClientHello does not hold it until Netty's own handshake timeout (10 s).
     */
    private Channel connecting;
    private CompletableFuture<FullHttpResponse> pending;
    /** The pending request's answer timeout: no timer per request (see {@link LazyDeadline}). */
    private final LazyDeadline answerDeadline;
    /** What the pending request asked, for the timeout's message (no string built per request). */
    private HttpMethod pendingMethod;
    private String pendingUri;
    private long pendingTimeoutMillis;
    private boolean closed;

    /** A channel to {@code endpoint} on one of the shared event loops. */
    public HttpClientChannel(Endpoint endpoint) {
        this(endpoint, null);
    }

    /**
     * A channel to {@code endpoint} on {@code loop} (one of the shared event loops), or on the next
     * shared loop if null. A long-polling link puts its upload and poll channels on one loop, so that
     * an exchange's answers are handled by one thread instead of waking two.
     */
    public HttpClientChannel(Endpoint endpoint, EventLoop loop) {
        this.endpoint = endpoint;
        this.loops = EventLoops.shared(true);
        this.authority = endpoint.authority();
        this.loop = loop != null ? loop : loops.group().next();
        this.answerDeadline = new LazyDeadline(this.loop, this::answerTimedOut);
    }

    /**
     * The pending request's timeout ran out: says which step did not finish, the TCP connect, the TLS
     * handshake (a server that accepted the connection and never answered the ClientHello), or the answer.
     */
    private void answerTimedOut() {
        Channel c = connecting;
        String within = " within " + pendingTimeoutMillis + " ms";
        String reason;
        if (c == null) {
            reason = "no answer from " + endpoint + within + " to " + pendingMethod + " " + shortUri(pendingUri);
        } else if (!c.isActive()) {
            reason = "no connection to " + endpoint + within;
        } else {
            reason = "the TLS handshake with " + endpoint + " did not complete" + within
                    + " (the server took the TCP connection but did not answer the ClientHello)";
        }
        fail(new IOException(reason));
    }

    /** The event loop everything of this channel runs on. */
    public EventLoop loop() {
        return loop;
    }

    /**
     * A request for {@code uri} with {@code body} (taken over; empty for none). It carries no headers
     * yet: {@code Host} and {@code Content-Length} (on a POST, or with a body) are written by the lean
     * encoder, or added for Netty's encoder ({@link #withHeaders}), when it is sent.
     */
    public FullHttpRequest request(HttpMethod method, String uri, ByteBuf body) {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri, body == null ? Unpooled.EMPTY_BUFFER : body,
                NO_HEADERS, EmptyHttpHeaders.INSTANCE);
    }

    private static final HttpHeaders NO_HEADERS = new ReadOnlyHttpHeaders(false);

    /** Whether a request carries Content-Length: a POST always, another method when it has a body. */
    private static boolean hasLength(FullHttpRequest request) {
        return request.method().equals(HttpMethod.POST) || request.content().isReadable();
    }

    /** {@code request} (given up) with its Host and Content-Length headers, for Netty's encoder. */
    FullHttpRequest withHeaders(FullHttpRequest request) {
        if (request.headers() != NO_HEADERS) {
            return request;
        }
        FullHttpRequest full = new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(),
                request.content(), Wire.HEADERS, Wire.TRAILERS);
        // No "Connection: keep-alive": HTTP/1.1 connections are persistent unless a side says close.
        full.headers().set(HttpHeaderNames.HOST, authority);
        if (hasLength(request)) {
            // No Content-Type: a body without one is application/octet-stream (RFC 9110 8.3), as ours are.
            full.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, request.content().readableBytes());
        }
        return full;
    }

    /** The head the lean encoder writes for {@code request}: what Netty's encoder writes for {@link #withHeaders}. */
    ByteBuf leanHead(io.netty.buffer.ByteBufAllocator alloc, FullHttpRequest request, int extra) {
        if (request.headers() != NO_HEADERS) {
            return LeanEncoder.head(alloc, request, extra);
        }
        return LeanEncoder.requestHead(alloc, request.method(), request.uri(), authority,
                hasLength(request) ? request.content().readableBytes() : -1, extra);
    }

    /**
     * Sends {@code request} and completes with the whole response (the caller releases it), or
     * exceptionally with an {@link IOException} if the connection fails or no answer comes within
     * {@code timeoutMillis}. Called on {@link #loop()} or not; completes on {@link #loop()}.
     */
    public CompletableFuture<FullHttpResponse> send(FullHttpRequest request, long timeoutMillis) {
        CompletableFuture<FullHttpResponse> result = new CompletableFuture<>();
        if (loop.inEventLoop()) {
            start(request, timeoutMillis, result); // the next poll or upload goes out now, not after the loop's batch
        } else {
            loop.execute(() -> start(request, timeoutMillis, result));
        }
        return result;
    }

    private void start(FullHttpRequest request, long timeoutMillis, CompletableFuture<FullHttpResponse> result) {
        if (closed) {
            request.release();
            result.completeExceptionally(new IOException("HTTP connection to " + endpoint + " is closed"));
            return;
        }
        if (pending != null) {
            request.release();
            result.completeExceptionally(new IllegalStateException("one request at a time on " + endpoint));
            return;
        }
        pending = result;
        pendingMethod = request.method();
        pendingUri = request.uri();
        pendingTimeoutMillis = timeoutMillis;
        answerDeadline.set(TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        if (channel != null && channel.isActive()) {
            write(channel, request);
            return;
        }
        connect(timeoutMillis).whenComplete((ch, failure) -> {
            if (failure != null) {
                request.release();
                if (pending == result) { // not a connection given up for an earlier request's timeout
                    fail(failure instanceof IOException io ? io : new IOException(failure.getMessage(), failure));
                }
            } else if (pending != result) {
                request.release();
            } else {
                write(ch, request);
            }
        });
    }

    /**
     * Writes {@code request}: by the lean encoder while the channel's lean decoder takes the answers
     * (a request and its answer are both lean or both Netty's: see {@link LeanResponseDecoder}).
     */
    private void write(Channel ch, FullHttpRequest request) {
        LeanResponseDecoder lean = ch.pipeline().get(LeanResponseDecoder.class);
        if (lean != null && lean.isLean()) {
            ChannelHandlerContext raw = lean.rawContext();
            ByteBuf body = request.content();
            int length = body.readableBytes();
            LeanEncoder.write(raw, leanHead(raw.alloc(), request, length <= LeanEncoder.COPY_LIMIT ? length : 0), body,
                    raw.voidPromise());
        } else {
            ch.writeAndFlush(withHeaders(request), ch.voidPromise());
        }
    }

    private static String shortUri(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    private CompletableFuture<Channel> connect(long timeoutMillis) {
        CompletableFuture<Channel> ready = new CompletableFuture<>();
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(loops.socketChannel())
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMillis)))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (endpoint.ssl() != null) {
                            // The handshake's cryptography off the event loop, which carries other connections.
                            SslHandler ssl = endpoint.ssl().newHandler(ch.alloc(), endpoint.host(), endpoint.port(),
                                    org.sessionj.transport.netty.internal.TlsHandshakes.delegatedTasks());
                            ch.pipeline().addLast(ssl);
                        }
                        if (endpoint.settings().leanCodec()) {
                            ch.pipeline().addLast(new LeanResponseDecoder(endpoint.settings().responseBytes() + 65536));
                        }
                        ch.pipeline().addLast(new HttpClientCodec(new HttpDecoderConfig().setMaxInitialLineLength(4096)
                                .setMaxHeaderSize(8192).setMaxChunkSize(64 * 1024).setHeadersFactory(Wire.HEADERS)
                                .setTrailersFactory(Wire.TRAILERS), false, false),
                                new ResponseAssembler(endpoint.settings().responseBytes() + 65536),
                                new ResponseHandler());
                    }
                });
        io.netty.channel.ChannelFuture connect = bootstrap.connect(new InetSocketAddress(endpoint.host(), endpoint.port()));
        connecting = connect.channel();
        connect.addListener(f -> {
            if (!f.isSuccess()) {
                if (connecting == connect.channel()) {
                    connecting = null;
                }
                ready.completeExceptionally(new IOException("cannot connect to " + endpoint + ": " + reason(f.cause()),
                        f.cause()));
                return;
            }
            Channel ch = ((io.netty.channel.ChannelFuture) f).channel();
            if (endpoint.ssl() != null) {
                ch.pipeline().get(SslHandler.class).handshakeFuture().addListener(h -> {
                    if (connecting == ch) {
                        connecting = null;
                    }
                    if (h.isSuccess()) {
                        channel = ch;
                        ready.complete(ch);
                    } else {
                        ch.close();
                        ready.completeExceptionally(new IOException("TLS handshake with " + endpoint + " failed: "
                                + org.sessionj.transport.tls.TlsContexts.reason(h.cause()), h.cause()));
                    }
                });
            } else {
                if (connecting == ch) {
                    connecting = null;
                }
                channel = ch;
                ready.complete(ch);
            }
        });
        return ready;
    }

    static String reason(Throwable cause) {
        Throwable t = cause;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    private void fail(IOException failure) {
        CompletableFuture<FullHttpResponse> p = pending;
        pending = null;
        answerDeadline.clear();
        if (channel != null) {
            channel.close(); // its state is unknown now: the next request reconnects
            channel = null;
        }
        if (connecting != null) {
            connecting.close(); // a connect or TLS handshake that did not finish in time: not kept for later
            connecting = null;
        }
        if (p != null) {
            p.completeExceptionally(failure);
        }
    }

    /** Answer timers scheduled so far on this channel (for tests). */
    int answerTimersScheduled() {
        return answerDeadline.timersScheduled();
    }

    /** Closes the connection; a request in flight fails. */
    public void close() {
        loop.execute(() -> {
            closed = true;
            fail(new IOException("HTTP connection to " + endpoint + " closed"));
            answerDeadline.cancel();
        });
    }

    private final class ResponseHandler extends SimpleChannelInboundHandler<FullHttpResponse> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
            CompletableFuture<FullHttpResponse> p = pending;
            if (p == null || ctx.channel() != channel) {
                return;
            }
            pending = null;
            answerDeadline.clear();
            if (!HttpUtil.isKeepAlive(response)) {
                ctx.close();
                channel = null;
            }
            p.complete(response.retain());
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() == channel) {
                fail(new IOException("connection to " + endpoint + " closed before the response"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ctx.channel() == channel) {
                fail(new IOException("connection to " + endpoint + " failed: " + reason(cause), cause));
            } else {
                ctx.close();
            }
        }
    }
}
