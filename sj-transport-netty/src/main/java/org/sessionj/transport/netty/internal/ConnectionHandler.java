package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/** The last handler of a connection's pipeline: hands frames and channel events to its {@link NettyConnection}. */
public final class ConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(ConnectionHandler.class.getName());

    private final NettyConnection connection;

    ConnectionHandler(NettyConnection connection) {
        this.connection = connection;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        connection.attach(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf frame) {
            connection.frameReceived(frame);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.ended();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        connection.writabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(System.Logger.Level.DEBUG, () -> "closing " + connection + " after a failure", cause);
        connection.failed(cause);
        ctx.close();
    }
}
