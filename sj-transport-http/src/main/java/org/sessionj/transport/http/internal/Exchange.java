package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request being served: answered exactly once ({@link #respond}, from any thread), possibly
 * after being held (a long poll, an upload waiting for room). The request's body stays valid until
 * the exchange is answered; a cleanup runs if the client goes away first.
 */
public final class Exchange {
    private final ChannelHandlerContext ctx;
    private final FullHttpRequest request;
    private final String queryUri;
    /** Parsed on first use: the per-message requests never need it ({@link Wire#rawLongParam}). */
    private QueryStringDecoder query;
    private final boolean keepAlive;
    private final Runnable answered;
    /** Where a lean answer is written from ({@link LeanRequestDecoder}), or null: Netty's encoder writes it. */
    private final ChannelHandlerContext raw;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Runnable onAbandon;

    /**
     * {@code queryUri}: the URI to parse for {@link #query} (the request's, or "/" for a malformed one);
     * {@code raw}: for a request the lean decoder decoded, the context its answer is written from by
     * {@link LeanEncoder} (null: through Netty's encoder, which saw the request).
     */
    Exchange(ChannelHandlerContext ctx, FullHttpRequest request, String queryUri, Runnable answered,
            ChannelHandlerContext raw) {
        this.ctx = ctx;
        this.raw = raw;
        this.request = request;
        this.queryUri = queryUri;
        this.keepAlive = HttpUtil.isKeepAlive(request);
        this.answered = answered;
    }

    /** The request (its body is released when the exchange is answered). */
    public FullHttpRequest request() {
        return request;
    }

    /**
     * The parsed path and query (parsed on first use, on the exchange's loop).
     *
     * @throws BadRequestException if the URI has a malformed percent-escape (the client's mistake: 400)
     */
    public QueryStringDecoder query() {
        QueryStringDecoder q = query;
        if (q == null) {
            q = new QueryStringDecoder(queryUri);
            try {
                q.path(); // decoded lazily: decode here, so that a bad escape is one clear error
                q.parameters();
            } catch (IllegalArgumentException e) {
                throw new BadRequestException("malformed request URI (expected %XX escapes of two hex digits): "
                        + e.getMessage());
            }
            query = q;
        }
        return q;
    }

    /** The request's protocol version (HTTP/1.0 from a stock nginx). */
    public HttpVersion version() {
        return request.protocolVersion();
    }

    /** The event loop of the request's channel: held work continues there. */
    public EventExecutor executor() {
        return ctx.executor();
    }

    /** The event loop of the request's channel (a relay pair's home). */
    public io.netty.channel.EventLoop eventLoop() {
        return ctx.channel().eventLoop();
    }

    /** The channel context (for a WebSocket upgrade). */
    ChannelHandlerContext context() {
        return ctx;
    }

    /** The client's address, for logs. */
    public String remote() {
        return String.valueOf(ctx.channel().remoteAddress());
    }

    /** The address the client's connection comes from (its IP address; the proxy's, behind a proxy), for per-source limits. */
    public String source() {
        return ctx.channel().remoteAddress() instanceof java.net.InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : String.valueOf(ctx.channel().remoteAddress());
    }

    /** The IP address the client's connection comes from (the proxy's, behind a proxy), or null if it has none. */
    public java.net.InetAddress sourceAddress() {
        return ctx.channel().remoteAddress() instanceof java.net.InetSocketAddress inet ? inet.getAddress() : null;
    }

    /** Whether the exchange was answered (or abandoned). */
    public boolean isDone() {
        return done.get();
    }

    /** Runs {@code cleanup} if the client's connection closes before the exchange is answered. */
    public void onAbandon(Runnable cleanup) {
        this.onAbandon = cleanup;
    }

    /** Answers with {@code response}; ignored (and released) if already answered or abandoned. */
    public void respond(FullHttpResponse response) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> respond(response));
            return;
        }
        if (!done.compareAndSet(false, true)) {
            response.release();
            return;
        }
        request.release();
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive && request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        if (raw != null) {
            writeLean(response);
            return;
        }
        if (keepAlive) {
            ctx.writeAndFlush(response, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
        answered.run(); // after the write: the channel reads on only if the client takes its answers
    }

    /** Answers with a plain-text error. */
    public void fail(HttpResponseStatus status, String reason) {
        respond(Wire.text(version(), status, reason));
    }

    /**
     * Answers 200 with stream bytes from {@code offset} (a poll's answer; {@code bytes} taken over),
     * with {@code X-SJ-Offset} and, when {@code fin}, {@code X-SJ-Fin}. A lean exchange writes the
     * answer's bytes directly (the same bytes: {@code LeanCodecTest}), without building a response.
     */
    public void respondBytes(ByteBuf bytes, long offset, boolean fin) {
        if (raw == null || !ctx.executor().inEventLoop()) {
            FullHttpResponse response = Wire.bytes(version(), bytes);
            response.headers().set(Wire.OFFSET, offset);
            if (fin) {
                response.headers().set(Wire.FIN, "1");
            }
            respond(response);
            return;
        }
        if (!done.compareAndSet(false, true)) {
            bytes.release();
            return;
        }
        request.release();
        int length = bytes.readableBytes();
        ByteBuf head = LeanEncoder.bytesHead(raw.alloc(), http10(), keepAlive, length, offset, fin,
                length <= LeanEncoder.COPY_LIMIT ? length : 0);
        writeLean(head, bytes);
    }

    /** Answers "nothing new" (204). */
    public void empty() {
        if (raw == null || !ctx.executor().inEventLoop()) {
            respond(Wire.empty(version(), HttpResponseStatus.NO_CONTENT));
            return;
        }
        if (!done.compareAndSet(false, true)) {
            return;
        }
        request.release();
        writeLean(LeanEncoder.noContent(raw.alloc(), http10(), keepAlive), Unpooled.EMPTY_BUFFER);
    }

    private boolean http10() {
        return request.protocolVersion().equals(HttpVersion.HTTP_1_0);
    }

    private void writeLean(FullHttpResponse response) {
        ByteBuf body = response.content();
        int length = body.readableBytes();
        writeLean(LeanEncoder.head(raw.alloc(), response, length <= LeanEncoder.COPY_LIMIT ? length : 0), body);
    }

    private void writeLean(ByteBuf head, ByteBuf body) {
        if (keepAlive) {
            LeanEncoder.write(raw, head, body, raw.voidPromise());
        } else {
            ChannelPromise written = raw.newPromise();
            LeanEncoder.write(raw, head, body, written);
            written.addListener(ChannelFutureListener.CLOSE);
        }
        answered.run();
    }

    /** The channel closed first: nobody will read an answer. */
    void abandon() {
        if (done.compareAndSet(false, true)) {
            request.release();
            Runnable cleanup = onAbandon;
            if (cleanup != null) {
                cleanup.run();
            }
        }
    }

    /** The upgrade took the exchange over (the WebSocket now owns the channel). */
    boolean takeOver() {
        if (done.compareAndSet(false, true)) {
            request.release();
            return true;
        }
        return false;
    }
}
