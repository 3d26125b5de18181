package org.sessionj.transport.http.internal;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * Bounds the bytes of request bodies a server holds before it has answered them: a body being
 * received (the HTTP aggregator holds it until it is whole) or held (an upload waiting for room) is
 * charged to one {@link Budget} shared by every connection of the server, and given back when the
 * request is answered, taken over by a WebSocket, or its connection closes. Without it, thousands of
 * connections that each send most of a segment and stall would hold a segment each until the request
 * deadline. A body that does not fit is answered 503 and its connection closed (the client retries).
 * One per channel, between the HTTP codec and the aggregator.
 */
final class BodyBudget extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(BodyBudget.class.getName());

    private final Budget budget;
    private long held;
    private boolean refused;

    BodyBudget(Budget budget) {
        this.budget = budget;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpContent content) {
            int bytes = content.content().readableBytes();
            if (bytes > 0 && !budget.tryTake(bytes)) {
                ReferenceCountUtil.release(msg);
                refused = true;
                LOG.log(System.Logger.Level.DEBUG, "refusing a request body from {0}: {1} bytes of bodies held already",
                        ctx.channel().remoteAddress(), budget.used());
                ctx.writeAndFlush(Wire.text(HttpVersion.HTTP_1_1, HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "the server holds " + budget.limit() + " bytes of request bodies already; retry later"))
                        .addListener(ChannelFutureListener.CLOSE);
                return;
            }
            held += bytes;
        }
        ctx.fireChannelRead(msg);
    }

    /** The request whose body was charged has been answered (or taken over): its bytes are given back. */
    void requestDone() {
        if (held > 0) {
            budget.give(held);
            held = 0;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        requestDone();
        super.channelInactive(ctx);
    }
}
