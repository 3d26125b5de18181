package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpMessage;

/**
 * What {@link RequestAssembler} and {@link ResponseAssembler} share: the head of the message being
 * assembled and its {@link BodyPieces}, the body's size bound, and the lifecycle that releases a
 * half-assembled body when it is discarded (a new message, a refusal), when the channel goes inactive
 * and when the handler is removed, so that a connection closed mid-message leaks nothing.
 *
 * @param <H> the head's type
 */
abstract class MessageAssembler<H extends HttpMessage> extends ChannelInboundHandlerAdapter {
    /** The most body bytes a message may have. */
    final int maxBytes;
    /** The head of the message being assembled, or null between messages. */
    H head;
    /** The body gathered so far. */
    final BodyPieces body = new BodyPieces();

    MessageAssembler(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Whether {@code piece} would take the body past {@link #maxBytes}. */
    final boolean tooLong(ByteBuf piece) {
        return body.size() + (long) piece.readableBytes() > maxBytes;
    }

    /** Forgets the message being assembled and releases its body. */
    final void discard() {
        head = null;
        body.release();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        discard();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        discard();
    }
}
