package org.sessionj.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** The plain TCP pipeline: frame decoder, then the connection; usable as soon as the socket is connected. */
public final class PlainChannelSetup implements ChannelSetup {
    private final String transportName;
    private final NettySettings settings;

    /** A setup for connections of {@code transportName}. */
    public PlainChannelSetup(String transportName, NettySettings settings) {
        this.transportName = transportName;
        this.settings = settings;
    }

    @Override
    public void initAccepted(Channel channel, Consumer<NettyConnection> accepted) {
        NettyConnection connection = new NettyConnection(channel, transportName, settings);
        Heartbeats.addIfEnabled(channel, settings.heartbeat(), connection);
        channel.pipeline().addLast(connection.frameDecoder(), connection.handler());
        accepted.accept(connection);
    }

    @Override
    public void initConnecting(Channel channel, String host, int port, CompletableFuture<NettyConnection> ready) {
        NettyConnection connection = new NettyConnection(channel, transportName, settings);
        Heartbeats.addIfEnabled(channel, settings.heartbeat(), connection);
        channel.pipeline().addLast(connection.frameDecoder(), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.pipeline().remove(this);
                ready.complete(connection);
                ctx.fireChannelActive();
            }
        }, connection.handler());
    }
}
