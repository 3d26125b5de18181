package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;

/**
 * Makes one {@link FullHttpResponse} of a decoded response's head and body on a client channel, in
 * place of Netty's {@code HttpObjectAggregator} (see {@link RequestAssembler}: a body in one piece is
 * the decoder's buffer, no composite or wrapper per response). A body over {@code maxBytes} fails the
 * channel with an {@link IOException}; a response the decoder could not parse is passed on with its
 * failure.
 */
final class ResponseAssembler extends MessageAssembler<HttpResponse> {
    ResponseAssembler(int maxBytes) {
        super(maxBytes);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FullHttpResponse full) {
            discard();
            ctx.fireChannelRead(full);
            return;
        }
        if (msg instanceof HttpResponse response) {
            discard();
            if (response.decoderResult().isFailure()) {
                ctx.fireChannelRead(whole(response, Unpooled.EMPTY_BUFFER, LastHttpContent.EMPTY_LAST_CONTENT,
                        response.decoderResult()));
                return;
            }
            if (HttpUtil.getContentLength(response, -1L) > maxBytes) {
                refuseTooLong(ctx);
                return;
            }
            head = response;
            return;
        }
        if (msg instanceof HttpContent content) {
            if (head == null) {
                content.release();
                return;
            }
            add(ctx, content);
            return;
        }
        ReferenceCountUtil.release(msg);
    }

    private void add(ChannelHandlerContext ctx, HttpContent content) {
        ByteBuf piece = content.content();
        if (tooLong(piece)) {
            content.release();
            refuseTooLong(ctx);
            return;
        }
        body.add(ctx.alloc(), piece);
        DecoderResult result = content.decoderResult();
        boolean last = content instanceof LastHttpContent;
        if (last || result.isFailure()) {
            HttpResponse response = head;
            ByteBuf whole = body.take();
            head = null;
            FullHttpResponse full = whole(response, whole,
                    last ? (LastHttpContent) content : LastHttpContent.EMPTY_LAST_CONTENT, result);
            content.release();
            ctx.fireChannelRead(full);
        } else {
            content.release();
        }
    }

    private static FullHttpResponse whole(HttpResponse head, ByteBuf body, LastHttpContent last, DecoderResult result) {
        FullHttpResponse full = new DefaultFullHttpResponse(head.protocolVersion(), head.status(), body, head.headers(),
                last.trailingHeaders());
        full.setDecoderResult(result);
        return full;
    }

    private void refuseTooLong(ChannelHandlerContext ctx) {
        discard();
        ctx.fireExceptionCaught(new IOException("a response body over " + maxBytes + " bytes"));
    }
}
