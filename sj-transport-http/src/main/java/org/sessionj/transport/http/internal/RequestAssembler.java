package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Makes one {@link FullHttpRequest} of a decoded request's head and body, in place of Netty's
 * {@code HttpObjectAggregator}: a body that arrived in one piece (every upload of an SJ client, and
 * most through a proxy) is the decoder's own buffer, not a composite buffer built per request, and no
 * wrapper message or leak-tracked composite is made. A body in several pieces is gathered into a
 * composite, as the aggregator did.
 *
 * <p>As the aggregator: a body over {@code maxBytes} (announced or received) is answered 413, an
 * {@code Expect: 100-continue} is answered {@code 100 Continue} (a client such as curl waits for it),
 * any other expectation 417; a request the decoder could not parse is passed on with its failure (the
 * handler answers 400). A refused request closes the connection (its body is not read). Runs
 * {@code requestEnded} when a request, or after an upgrade a WebSocket frame, has arrived whole (the end
 * of its deadline).
 */
final class RequestAssembler extends MessageAssembler<HttpRequest> {
    private final Runnable requestEnded;
    private boolean refused;

    RequestAssembler(int maxBytes, Runnable requestEnded) {
        super(maxBytes);
        this.requestEnded = requestEnded;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof FullHttpRequest full) {
            // A whole message from the decoder (its stand-in for a request it could not parse).
            discard();
            requestEnded.run();
            ctx.fireChannelRead(full);
            return;
        }
        if (msg instanceof HttpRequest request) {
            discard();
            start(ctx, request);
            return;
        }
        if (msg instanceof HttpContent content) {
            if (head == null) {
                content.release(); // content of no request (after a failure): nothing to attach it to
                return;
            }
            add(ctx, content);
            return;
        }
        if (msg instanceof io.netty.handler.codec.http.websocketx.WebSocketFrame) {
            // After an upgrade: a frame arrived whole, which meets its deadline as a request does. Before,
            // nothing bounded a frame trickled in a byte at a time, short of the idle timeout.
            requestEnded.run();
        }
        ctx.fireChannelRead(msg);
    }

    private void start(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            requestEnded.run();
            ctx.fireChannelRead(whole(request, Unpooled.EMPTY_BUFFER, LastHttpContent.EMPTY_LAST_CONTENT,
                    request.decoderResult()));
            return;
        }
        String expect = request.headers().get(HttpHeaderNames.EXPECT);
        if (expect != null && request.protocolVersion().compareTo(HttpVersion.HTTP_1_1) >= 0
                && !HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect.strip())) {
            refuse(ctx, HttpResponseStatus.EXPECTATION_FAILED, "the only expectation understood is 100-continue");
            return;
        }
        if (HttpUtil.getContentLength(request, -1L) > maxBytes) {
            refuse(ctx, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "a request body is at most " + maxBytes + " bytes");
            return;
        }
        if (HttpUtil.is100ContinueExpected(request)) {
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                    Unpooled.EMPTY_BUFFER, Wire.HEADERS, Wire.TRAILERS), ctx.voidPromise());
            request.headers().remove(HttpHeaderNames.EXPECT);
        }
        head = request;
    }

    private void add(ChannelHandlerContext ctx, HttpContent content) {
        ByteBuf piece = content.content();
        if (tooLong(piece)) {
            content.release();
            refuse(ctx, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "a request body is at most " + maxBytes + " bytes");
            return;
        }
        body.add(ctx.alloc(), piece);
        if (content instanceof LastHttpContent last) {
            HttpRequest request = head;
            ByteBuf whole = body.take();
            head = null;
            requestEnded.run();
            FullHttpRequest full = whole(request, whole, last, last.decoderResult());
            content.release();
            ctx.fireChannelRead(full);
        } else {
            DecoderResult result = content.decoderResult();
            content.release();
            if (result.isFailure()) {
                // The decoder gave up in the body: pass the request on with the failure (answered 400).
                HttpRequest request = head;
                ByteBuf part = body.take();
                head = null;
                requestEnded.run();
                ctx.fireChannelRead(whole(request, part, LastHttpContent.EMPTY_LAST_CONTENT, result));
            }
        }
    }

    private static FullHttpRequest whole(HttpRequest head, ByteBuf body, LastHttpContent last, DecoderResult result) {
        FullHttpRequest full = new DefaultFullHttpRequest(head.protocolVersion(), head.method(), head.uri(), body,
                head.headers(), last.trailingHeaders());
        full.setDecoderResult(result);
        return full;
    }

    /** Answers {@code status} and closes: the rest of the request is not read. */
    private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status, String why) {
        discard();
        refused = true;
        requestEnded.run();
        ctx.writeAndFlush(Wire.text(HttpVersion.HTTP_1_1, status, why)).addListener(ChannelFutureListener.CLOSE);
    }
}
