package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * hostile17 H10: a server (or a relay, or a proxy in the middle) that floods a WebSocket client with
 * pings and reads nothing. The client answers at most one ping at a time (a newer ping's payload replaces
 * an older unanswered one, as RFC 6455 section 5.5.3 allows), so what it holds for the server stays near
 * one pong. Before, it wrote a pong per ping: 200,000 pings of 125 bytes left ~25 MB of pongs queued in
 * the client (what the sockets did not take).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketPingFloodTest {
    private static final int PINGS = 200_000;

    @Test
    void aClientFloodedWithPingsByAServerThatReadsNothingHoldsAtMostAFewPongs() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        TunnelConnection client = null;
        try {
            Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536),
                                    new WebSocketServerProtocolHandler("/", null, false, 65536, false, true),
                                    new Flooder());
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            HttpSettings settings = new HttpSettings(500, 1000, 4096, 1 << 20, 5_000, true, 1 << 20);
            client = TunnelConnection.attach("http", new Endpoint("127.0.0.1", port, null, settings), Wire.newToken(),
                    "to the flooder", null, 2, TimeUnit.SECONDS.toNanos(20));
            assertThat(client.mode()).isEqualTo("websocket");
            // The frame comes after every ping: once it is read, the client has handled them all.
            ByteBuf frame = client.read(TimeUnit.SECONDS.toNanos(40));
            assertThat(frame).isNotNull();
            assertThat(frame.readInt()).isEqualTo(42);
            frame.release();
            WebSocketLink link = client.webSocketLink();
            long pending = link.pendingOutboundBytes();
            System.out.printf("after %,d pings from a server that reads nothing: %,d bytes of pongs queued, %,d pings"
                    + " not answered (a newer one was)%n", PINGS, pending, link.pingsCoalesced());
            assertThat(pending).as("bytes the client holds for the server").isLessThan(64 << 10);
            assertThat(link.pingsCoalesced()).as("pings answered by a later pong").isPositive();
            server.close().sync();
        } finally {
            if (client != null) {
                client.close();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** After the upgrade: reads nothing more, sends the pings, then one frame (a 4-byte int). */
    private static final class Flooder extends ChannelInboundHandlerAdapter {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof WebSocketServerProtocolHandler.HandshakeComplete) {
                ctx.channel().config().setAutoRead(false);
                byte[] payload = new byte[125];
                for (int i = 0; i < PINGS; i++) {
                    ctx.write(new PingWebSocketFrame(Unpooled.wrappedBuffer(payload)));
                    if (i % 1024 == 0) {
                        ctx.flush();
                    }
                }
                ByteBuf data = Unpooled.buffer(9).writeByte(Wire.WS_DATA).writeInt(4).writeInt(42);
                ctx.writeAndFlush(new BinaryWebSocketFrame(data));
            }
            ctx.fireUserEventTriggered(event);
        }
    }
}
