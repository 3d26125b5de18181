package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;

/**
 * Answers a WebSocket peer's pings with at most one pong in flight: a ping that arrives while a pong is
 * still on its way to the socket is answered later, by one pong carrying the newest unanswered ping's
 * payload (RFC 6455 section 5.5.3 lets an endpoint answer only the most recent ping). A peer that floods
 * pings and reads nothing thus makes this side hold one pong and one payload of at most 125 bytes, not a
 * pong per ping (hostile17 H10: 200,000 pings made a client queue ~25 MB of pongs). One per channel, used
 * on its event loop only.
 */
final class PongGuard implements ChannelFutureListener {
    private ChannelHandlerContext ctx;
    private boolean inFlight;
    private ByteBuf unanswered;
    private long coalesced;

    /**
     * Answers the ping whose payload is {@code payload} (not taken over: retained if kept), now or once
     * the pong in flight has left.
     */
    void ping(ChannelHandlerContext context, ByteBuf payload) {
        this.ctx = context;
        if (!inFlight) {
            send(payload.retain());
            return;
        }
        if (unanswered != null) {
            unanswered.release();
            coalesced++;
        }
        unanswered = payload.retain();
    }

    private void send(ByteBuf payload) {
        inFlight = true;
        ChannelFuture written = ctx.writeAndFlush(new PongWebSocketFrame(payload));
        written.addListener(this);
    }

    /** The pong in flight was written to the socket (or failed): the newest unanswered ping, if any, is next. */
    @Override
    public void operationComplete(ChannelFuture future) {
        inFlight = false;
        ByteBuf next = unanswered;
        unanswered = null;
        if (next == null) {
            return;
        }
        if (future.isSuccess() && future.channel().isActive()) {
            send(next);
        } else {
            next.release();
        }
    }

    /** Pings answered by a later pong instead of their own (for tests and logs). */
    long coalesced() {
        return coalesced;
    }

    /** Releases a payload still kept (the channel closed). */
    void release() {
        if (unanswered != null) {
            unanswered.release();
            unanswered = null;
        }
    }
}
