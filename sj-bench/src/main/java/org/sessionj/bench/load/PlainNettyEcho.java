package org.sessionj.bench.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The floor of the accept-load test: the same exchange as an SJ session of {@code OnceServer} (a
 * 4-byte frame in, one out, close) written directly on Netty (native epoll, as many event loops as
 * processors, a bootstrap per client connection, as the tcp transport does), with no negotiation,
 * no type check and no threads but the event loops on the server. What it costs per connection is
 * what the machine asks of any Netty server before SJ adds anything.
 */
final class PlainNettyEcho {
    private static final EventLoopGroup LOOPS = new MultiThreadIoEventLoopGroup(
            Runtime.getRuntime().availableProcessors(), new DefaultThreadFactory("plain-netty", true),
            EpollIoHandler.newFactory());

    private PlainNettyEcho() {
    }

    /** Listens on a free port; answers every 4-byte frame with the int plus one, in a frame. */
    static int listen() throws InterruptedException {
        Channel server = new ServerBootstrap()
                .group(LOOPS)
                .channel(EpollServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, io.netty.util.NetUtil.SOMAXCONN)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast(new LengthFieldBasedFrameDecoder(1 << 20, 0, 4, 0, 4),
                                new SimpleChannelInboundHandler<ByteBuf>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
                                        int value = frame.readInt();
                                        ctx.writeAndFlush(ctx.alloc().buffer(8).writeInt(4).writeInt(value + 1));
                                    }
                                });
                    }
                })
                .bind(new InetSocketAddress(0)).sync().channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** One client connection: connect, send {@code value}, wait for the answer, close; the answer. */
    static int once(String host, int port, int value) throws Exception {
        CompletableFuture<Integer> answer = new CompletableFuture<>();
        io.netty.channel.ChannelFuture connect = new Bootstrap()
                .group(LOOPS)
                .channel(EpollSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(1 << 20, 0, 4, 0, 4),
                                new SimpleChannelInboundHandler<ByteBuf>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
                                        answer.complete(frame.readInt());
                                    }

                                    @Override
                                    public void channelInactive(ChannelHandlerContext ctx) {
                                        answer.completeExceptionally(new java.io.IOException("closed by the server"));
                                    }
                                });
                    }
                })
                .connect(host, port);
        Channel channel = connect.channel();
        connect.addListener(f -> {
            if (f.isSuccess()) {
                channel.writeAndFlush(channel.alloc().buffer(8).writeInt(4).writeInt(value));
            } else {
                answer.completeExceptionally(f.cause());
            }
        });
        try {
            return answer.get(60, TimeUnit.SECONDS);
        } finally {
            CompletableFuture<Void> closed = new CompletableFuture<>();
            channel.close().addListener(f -> closed.complete(null));
            closed.get(60, TimeUnit.SECONDS);
        }
    }
}
