package org.sessionj.transport.http.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakerFactory;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sessionj.transport.netty.internal.EventLoops;

/**
 * The WebSocket link: one connection, upgraded with {@code GET .../ws}; binary messages carry
 * stream bytes both ways ({@link Wire#WS_DATA}), the end ({@link Wire#WS_FIN}) and failures
 * ({@link Wire#WS_ERROR}). A ping every poll interval keeps proxies from timing an idle session out.
 * A path that does not pass the upgrade makes {@link #connect} fail, and the caller falls back to
 * long polling.
 */
final class WebSocketLink implements TunnelConnection.Link {
    private final TunnelConnection connection;
    private final Channel channel;
    private final HttpSettings settings;
    private final CompletableFuture<Void> upDone = new CompletableFuture<>();
    private long position;
    private boolean waiting;
    private boolean finSent;
    private boolean uploading;
    private boolean uploadAgain;
    private boolean finReceived;
    private ScheduledFuture<?> pinger;
    private volatile boolean paused;
    /** The peer's pings answered with at most one pong in flight (hostile17 H10). */
    private final PongGuard pongs = new PongGuard();

    private WebSocketLink(TunnelConnection connection, Channel channel, HttpSettings settings) {
        this.connection = connection;
        this.channel = channel;
        this.settings = settings;
    }

    /** Upgrades a new connection to {@code endpoint} for {@code token}; fails if the path refuses the upgrade. */
    static WebSocketLink connect(TunnelConnection connection, Endpoint endpoint, String token, long timeoutNanos)
            throws IOException {
        EventLoops loops = EventLoops.shared(true);
        URI uri = URI.create((endpoint.ssl() == null ? "ws://" : "wss://") + endpoint.authority()
                + Wire.sessionPath(token, "ws"));
        WebSocketClientHandshaker handshaker = WebSocketClientHandshakerFactory.newHandshaker(uri, WebSocketVersion.V13,
                null, false, new DefaultHttpHeaders(), endpoint.settings().maxRequestBytes() + 16, true, false);
        CompletableFuture<WebSocketLink> ready = new CompletableFuture<>();
        Bootstrap bootstrap = new Bootstrap()
                .group(loops.group())
                .channel(loops.socketChannel())
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        TunnelConnection.millis(timeoutNanos)))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (endpoint.ssl() != null) {
                            // The handshake's cryptography off the event loop, which carries other connections.
                            ch.pipeline().addLast(endpoint.ssl().newHandler(ch.alloc(), endpoint.host(), endpoint.port(),
                                    org.sessionj.transport.netty.internal.TlsHandshakes.delegatedTasks()));
                        }
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(65536),
                                new Handshake(handshaker, connection, endpoint, ready));
                    }
                });
        ChannelFuture connect = bootstrap.connect(new InetSocketAddress(endpoint.host(), endpoint.port()));
        connect.addListener(f -> {
            if (!f.isSuccess()) {
                ready.completeExceptionally(new IOException("cannot connect to " + endpoint + ": "
                        + HttpClientChannel.reason(f.cause()), f.cause()));
            }
        });
        try {
            return ready.get(timeoutNanos < 0 ? 30_000_000_000L : timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            connect.channel().close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while upgrading to WebSocket at " + endpoint);
        } catch (java.util.concurrent.TimeoutException e) {
            Channel ch = connect.channel();
            io.netty.handler.ssl.SslHandler ssl = ch.pipeline().get(io.netty.handler.ssl.SslHandler.class);
            boolean handshaking = ch.isActive() && ssl != null && !ssl.handshakeFuture().isDone();
            ch.close();
            String within = " within " + TunnelConnection.millis(timeoutNanos) + " ms";
            throw new IOException(!connect.isDone() ? "no connection to " + endpoint + within
                    : handshaking ? "the TLS handshake with " + endpoint + " did not complete" + within
                            + " (the server took the TCP connection but did not answer the ClientHello)"
                    : "no WebSocket upgrade from " + endpoint + within);
        } catch (java.util.concurrent.ExecutionException e) {
            connect.channel().close();
            throw new IOException(e.getCause().getMessage(), e.getCause());
        }
    }

    @Override
    public String mode() {
        return "websocket";
    }

    @Override
    public void start() {
        channel.eventLoop().execute(() -> {
            // No ping while the socket takes nothing: one that cannot leave keeps no proxy's timer alive.
            pinger = channel.eventLoop().scheduleAtFixedRate(() -> {
                if (channel.isWritable()) {
                    channel.writeAndFlush(new PingWebSocketFrame());
                }
            }, settings.pollMillis(), settings.pollMillis(), TimeUnit.MILLISECONDS);
            upload();
        });
    }

    @Override
    public void upReady() {
        channel.eventLoop().execute(this::upload);
    }

    /** After every read of the session thread: a hand-off to the loop only when reading is paused. */
    @Override
    public void downResume() {
        if (!paused) {
            return;
        }
        channel.eventLoop().execute(() -> {
            if (paused && !connection.readerBehind()) {
                paused = false;
                channel.config().setAutoRead(true);
            }
        });
    }

    /** On the loop: stops reading the socket while the reader is behind (flag first, then a second look). */
    private void pauseIfBehind() {
        if (!connection.readerBehind()) {
            return;
        }
        paused = true;
        channel.config().setAutoRead(false);
        if (!connection.readerBehind()) {
            paused = false;
            channel.config().setAutoRead(true);
        }
    }

    /** Bytes written to the channel that the socket has not taken yet (for tests); any thread. */
    long pendingOutboundBytes() throws IOException {
        return onLoop(() -> {
            io.netty.channel.ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
            return buffer == null ? 0L : buffer.totalPendingWriteBytes();
        });
    }

    /** The peer's pings answered by a later pong instead of their own (for tests); any thread. */
    long pingsCoalesced() throws IOException {
        return onLoop(pongs::coalesced);
    }

    private long onLoop(java.util.concurrent.Callable<Long> task) throws IOException {
        try {
            return channel.eventLoop().submit(task).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IOException(e);
        }
    }

    @Override
    public CompletableFuture<Void> upDone() {
        return upDone;
    }

    @Override
    public void close() {
        channel.eventLoop().execute(() -> {
            if (pinger != null) {
                pinger.cancel(false);
            }
            if (channel.isActive()) {
                channel.writeAndFlush(new CloseWebSocketFrame()).addListener(f -> channel.close());
            }
            connection.assembler.release();
        });
    }

    /** Uploads what is there; a call while uploading (a flush made the channel writable) runs another round. */
    private void upload() {
        if (uploading) {
            uploadAgain = true;
            return;
        }
        uploading = true;
        try {
            do {
                uploadAgain = false;
                uploadOnce();
            } while (uploadAgain);
        } finally {
            uploading = false;
        }
    }

    private void uploadOnce() {
        if (finSent || !channel.isActive()) {
            return;
        }
        boolean wrote = false;
        try {
            while (channel.isWritable()) {
                ByteStream.Chunk chunk = connection.out.read(position, settings.segmentBytes());
                if (chunk == null) {
                    if (!waiting) {
                        waiting = true;
                        if (!connection.out.awaitData(ready -> channel.eventLoop().execute(() -> {
                            waiting = false;
                            upload();
                        }))) {
                            waiting = false;
                            continue;
                        }
                    }
                    return;
                }
                if (chunk.failure() != null) {
                    upDone.completeExceptionally(new IOException(chunk.failure()));
                    return;
                }
                if (chunk.hasBytes()) {
                    position += chunk.bytes().readableBytes();
                    ByteBuf message = Wire.wsData(channel.alloc(), chunk.bytes());
                    channel.write(new BinaryWebSocketFrame(message), channel.voidPromise());
                    wrote = true;
                } else if (chunk.bytes() != null) {
                    chunk.bytes().release();
                }
                if (chunk.fin()) {
                    finSent = true;
                    channel.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {Wire.WS_FIN})))
                            .addListener(f -> {
                                if (f.isSuccess()) {
                                    upDone.complete(null);
                                } else {
                                    upDone.completeExceptionally(f.cause());
                                }
                            });
                    return;
                }
            }
        } finally {
            if (wrote) {
                channel.flush();
            }
        }
    }

    /** Before the upgrade: finishes the handshake, then becomes the frame handler. */
    private static final class Handshake extends ChannelInboundHandlerAdapter {
        private final WebSocketClientHandshaker handshaker;
        private final TunnelConnection connection;
        private final Endpoint endpoint;
        private final CompletableFuture<WebSocketLink> ready;

        Handshake(WebSocketClientHandshaker handshaker, TunnelConnection connection, Endpoint endpoint,
                CompletableFuture<WebSocketLink> ready) {
            this.handshaker = handshaker;
            this.connection = connection;
            this.endpoint = endpoint;
            this.ready = ready;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (endpoint.ssl() != null) {
                ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class).handshakeFuture().addListener(f -> {
                    if (f.isSuccess()) {
                        handshaker.handshake(ctx.channel());
                    } else {
                        ready.completeExceptionally(new IOException("TLS handshake with " + endpoint + " failed: "
                                + org.sessionj.transport.tls.TlsContexts.reason(f.cause()), f.cause()));
                        ctx.close();
                    }
                });
            } else {
                handshaker.handshake(ctx.channel());
            }
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FullHttpResponse response) {
                try {
                    if (response.status().code() != 101) {
                        ready.completeExceptionally(new IOException("WebSocket upgrade refused by " + endpoint + ": "
                                + LongPollLink.describe(response)));
                        ctx.close();
                        return;
                    }
                    handshaker.finishHandshake(ctx.channel(), response);
                    WebSocketLink link = new WebSocketLink(connection, ctx.channel(), endpoint.settings());
                    ctx.pipeline().replace(this, "sj-ws", new Frames(link));
                    ready.complete(link);
                } catch (RuntimeException e) {
                    ready.completeExceptionally(new IOException("WebSocket upgrade with " + endpoint + " failed: " + e, e));
                    ctx.close();
                } finally {
                    response.release();
                }
                return;
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.completeExceptionally(new IOException(endpoint + " closed the connection during the WebSocket upgrade"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ready.completeExceptionally(new IOException("WebSocket upgrade with " + endpoint + " failed: "
                    + HttpClientChannel.reason(cause), cause));
            ctx.close();
        }
    }

    /** After the upgrade: downloads, the end, failures, pings. */
    private static final class Frames extends ChannelInboundHandlerAdapter {
        private final WebSocketLink link;

        Frames(WebSocketLink link) {
            this.link = link;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof BinaryWebSocketFrame frame) {
                    binary(ctx, frame.content());
                } else if (msg instanceof PingWebSocketFrame ping) {
                    link.pongs.ping(ctx, ping.content());
                } else if (msg instanceof CloseWebSocketFrame) {
                    lost("the peer closed the WebSocket before the end of the stream");
                    ctx.close();
                } else if (!(msg instanceof WebSocketFrame)) {
                    lost("unexpected message on the WebSocket: " + msg.getClass().getSimpleName());
                    ctx.close();
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void binary(ChannelHandlerContext ctx, ByteBuf content) {
            if (!content.isReadable()) {
                return;
            }
            byte kind = content.readByte();
            switch (kind) {
                case Wire.WS_DATA -> {
                    if (!link.connection.received(content.retain())) {
                        ctx.close();
                    } else {
                        link.pauseIfBehind();
                    }
                }
                case Wire.WS_FIN -> {
                    link.finReceived = true;
                    link.connection.ended();
                }
                case Wire.WS_ERROR -> {
                    lost(content.toString(StandardCharsets.UTF_8));
                    ctx.close();
                }
                default -> {
                    lost("unexpected WebSocket message kind " + kind + " from the peer");
                    ctx.close();
                }
            }
        }

        private void lost(String reason) {
            if (!link.finReceived) {
                link.finReceived = true;
                link.connection.failed(reason);
            }
            link.upDone.completeExceptionally(new IOException(reason));
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                link.upload();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (link.pinger != null) {
                link.pinger.cancel(false);
            }
            link.pongs.release();
            lost("the WebSocket connection to the peer was lost");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            lost("the WebSocket connection failed: " + HttpClientChannel.reason(cause));
            ctx.close();
        }
    }
}
