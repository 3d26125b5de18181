package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import java.util.List;

/**
 * What the two lean decoders ({@link LeanRequestDecoder}, {@link LeanResponseDecoder}) share: they sit in
 * front of Netty's HTTP codec, decode the heads they take with {@link HeadScanner}, pass a body that is
 * still arriving on in pieces, and at the first message they do not take hand the connection to Netty's
 * codec for good (every byte from then on goes through unchanged). While lean, the messages the other way
 * are written by {@link LeanEncoder} from {@link #rawContext()}, around Netty's encoder: a message and its
 * answer are either both lean or both Netty's.
 */
abstract class LeanDecoder extends ByteToMessageDecoder implements HeadScanner.Sink {
    /** The largest body decoded here (a longer one goes to Netty's codec, which refuses it). */
    final int maxBody;
    private ChannelHandlerContext context;
    private boolean netty;
    /** Body bytes still to come of the message whose head went on alone. */
    private long bodyLeft;

    LeanDecoder(int maxBody) {
        this.maxBody = maxBody;
    }

    @Override
    public final void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        context = ctx;
        super.handlerAdded(ctx);
    }

    /**
     * Where the lean messages of the other direction are written from: past this decoder towards the
     * socket (TLS and a server connection's guard still see them), around Netty's encoder.
     */
    final ChannelHandlerContext rawContext() {
        return context;
    }

    /** Whether the messages arriving now are decoded here (false once the connection went to Netty's codec). */
    final boolean isLean() {
        return !netty;
    }

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (netty) {
            ctx.fireChannelRead(msg); // Netty's codec has the connection
        } else {
            super.channelRead(ctx, msg);
        }
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (netty) {
            out.add(in.readRetainedSlice(in.readableBytes()));
            return;
        }
        if (bodyLeft > 0) {
            int n = (int) Math.min(bodyLeft, in.readableBytes());
            ByteBuf piece = in.readRetainedSlice(n);
            bodyLeft -= n;
            out.add(bodyLeft == 0 ? new DefaultLastHttpContent(piece, Wire.TRAILERS) : new DefaultHttpContent(piece));
            return;
        }
        decodeHead(in, out);
    }

    /**
     * Decodes the message starting at {@code in}'s reader index: adds it to {@code out} (with
     * {@link #bodyFollows} when only its head is there), or calls {@link #toNetty}, or returns
     * without reading anything to wait for more bytes.
     */
    abstract void decodeHead(ByteBuf in, List<Object> out);

    /** The head just added to {@code out} is followed by {@code length} body bytes still to arrive. */
    final void bodyFollows(long length) {
        bodyLeft = length;
    }

    /** Netty's codec takes the connection from here on, starting with these bytes. */
    final void toNetty(ByteBuf in, List<Object> out) {
        netty = true;
        out.add(in.readRetainedSlice(in.readableBytes()));
    }
}
