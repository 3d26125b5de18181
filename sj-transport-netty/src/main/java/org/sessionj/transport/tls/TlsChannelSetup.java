package org.sessionj.transport.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.io.IOException;
import java.security.Principal;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.transport.netty.internal.ChannelSetup;
import org.sessionj.transport.netty.internal.FrameDecoder;
import org.sessionj.transport.netty.internal.Heartbeats;
import org.sessionj.transport.netty.internal.NettyConnection;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.transport.netty.internal.TlsHandshakes;

/**
 * The TLS pipeline: {@link SslHandler}, then the frame decoder and the connection.
 *
 * <p>With TLS 1.3 a client finishes its handshake before the server has checked the client's
 * certificate, so a rejected client would only learn it on its first read. To make {@code connect}
 * itself fail, the server, once its handshake has succeeded, sends four bytes ({@code SJT1}); the
 * client's connection is usable only after they arrive. Nothing but TLS records ever travels: a
 * failed handshake closes the channel, there is no plaintext fallback.
 *
 * <p>Runtime heartbeats start on each side only once its gate has passed (the server has sent the
 * greeting, the client has read it). Started with the channel, a server whose handshake outlasted the
 * heartbeat interval (a cold JVM on a loaded machine) queued a heartbeat in the TLS handler before the
 * greeting, and the client read the heartbeat's header where it expected {@code SJT1}.
 */
final class TlsChannelSetup implements ChannelSetup {
    private static final System.Logger LOG = System.getLogger(TlsChannelSetup.class.getName());
    private static final byte[] ACCEPTED = {'S', 'J', 'T', '1'};
    private final NettySettings settings;
    private final Supplier<SslContext> serverContext;
    private final Supplier<SslContext> clientContext;

    /** Where TLS engines, accepted and connecting, run their delegated tasks ({@link TlsHandshakes#delegatedTasks()}). */
    private final java.util.concurrent.Executor handshakeTasks;

    TlsChannelSetup(NettySettings settings, Supplier<SslContext> serverContext, Supplier<SslContext> clientContext) {
        this(settings, serverContext, clientContext, TlsHandshakes.delegatedTasks());
    }

    /** With the engines' delegated tasks run on {@code handshakeTasks} (a test's embedded channels: inline). */
    TlsChannelSetup(NettySettings settings, Supplier<SslContext> serverContext, Supplier<SslContext> clientContext,
            java.util.concurrent.Executor handshakeTasks) {
        this.settings = settings;
        this.serverContext = serverContext;
        this.clientContext = clientContext;
        this.handshakeTasks = handshakeTasks;
    }

    @Override
    public void initAccepted(Channel channel, Consumer<NettyConnection> accepted) {
        TlsConnection connection = new TlsConnection(channel, settings);
        SslHandler ssl = serverContext.get().newHandler(channel.alloc(), handshakeTasks);
        channel.pipeline().addLast(ssl, new ServerGate(connection, ssl, settings.heartbeat(), accepted));
        channel.pipeline().addLast(connection.frameDecoder(), connection.handler());
    }

    @Override
    public boolean hasHandshake() {
        return true;
    }

    /** What a failed handshake expected and found ({@link TlsHandshakes#failure}). */
    @Override
    public String handshakeFailure(Throwable cause) {
        return TlsHandshakes.failure(cause);
    }

    @Override
    public void initConnecting(Channel channel, String host, int port, CompletableFuture<NettyConnection> ready) {
        TlsConnection connection = new TlsConnection(channel, settings);
        // As on the server: the key exchange and the certificate checks off the event loop, whose other
        // connections would wait for them (a client opening many sessions at once stalled its own).
        SslHandler ssl = clientContext.get().newHandler(channel.alloc(), host, port, handshakeTasks);
        channel.pipeline().addLast(ssl, new ClientGate(connection, ssl, settings.heartbeat(), host + ":" + port, ready));
        channel.pipeline().addLast(connection.frameDecoder(), connection.handler());
    }

    private static Principal peerPrincipal(SslHandler ssl) {
        try {
            return ssl.engine().getSession().getPeerPrincipal();
        } catch (SSLPeerUnverifiedException e) {
            return null; // the client did not authenticate, which the configuration allowed
        }
    }

    /** Heartbeats (if enabled) right behind the gate at {@code gate}, which is about to leave the pipeline. */
    private static void startHeartbeats(ChannelHandlerContext gate, Heartbeat heartbeat, NettyConnection connection) {
        if (heartbeat.enabled()) {
            gate.pipeline().addAfter(gate.name(), null, new Heartbeats(heartbeat, connection));
        }
    }

    /** What a client says when the first bytes after the handshake are not the greeting. */
    static String badGreeting(String server, byte[] found) {
        return "TLS peer " + server + " is not an SJ TLS acceptor: expected its greeting \"SJT1\" (53 4a 54 31) as the"
                + " first bytes after the handshake, found " + describe(found);
    }

    /** Bytes in hex, followed by their text when all are printable ASCII. */
    private static String describe(byte[] found) {
        return TlsHandshakes.describe(found);
    }

    /** The innermost message of a failure, with what it means for the client in front ({@link TlsHandshakes#reason}). */
    static String reason(Throwable cause) {
        return TlsHandshakes.reason(cause);
    }

    /**
     * Server side: hands the connection over once the handshake succeeded and says so to the client.
     * Nothing written before that greeting goes out: a heartbeat written while a slow TLS handshake ran
     * (one longer than the heartbeat interval, as on a loaded machine) was queued by the TLS handler and
     * reached the client before the greeting, which then failed with "bad greeting".
     */
    private static final class ServerGate extends io.netty.channel.ChannelDuplexHandler {
        private final TlsConnection connection;
        private final SslHandler ssl;
        private final Heartbeat heartbeat;
        private final Consumer<NettyConnection> accepted;

        ServerGate(TlsConnection connection, SslHandler ssl, Heartbeat heartbeat, Consumer<NettyConnection> accepted) {
            this.connection = connection;
            this.ssl = ssl;
            this.heartbeat = heartbeat;
            this.accepted = accepted;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise promise) {
            // Before the greeting only the heartbeats behind this gate write: they say nothing a TLS
            // handshake in progress does not say, and must not precede the greeting.
            io.netty.util.ReferenceCountUtil.release(msg);
            promise.trySuccess();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof SslHandshakeCompletionEvent done) {
                if (done.isSuccess()) {
                    connection.authenticated(peerPrincipal(ssl));
                    ctx.writeAndFlush(Unpooled.wrappedBuffer(ACCEPTED));
                    startHeartbeats(ctx, heartbeat, connection); // after the greeting, never before it
                    ctx.pipeline().remove(this);
                    accepted.accept(connection);
                } else {
                    LOG.log(System.Logger.Level.DEBUG, () -> "TLS handshake with " + ctx.channel().remoteAddress()
                            + " failed: " + reason(done.cause()));
                    ctx.close();
                }
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Before the handshake succeeded nobody holds the connection: just drop the channel.
            LOG.log(System.Logger.Level.DEBUG, () -> "dropping TLS client " + ctx.channel().remoteAddress()
                    + ": " + reason(cause));
            ctx.close();
        }
    }

    /** Client side: the connection is usable once the handshake succeeded and the server accepted us. */
    private static final class ClientGate extends ByteToMessageDecoder {
        private final TlsConnection connection;
        private final SslHandler ssl;
        private final Heartbeat heartbeat;
        private final String server;
        private final CompletableFuture<NettyConnection> ready;
        private Throwable failure;

        ClientGate(TlsConnection connection, SslHandler ssl, Heartbeat heartbeat, String server,
                CompletableFuture<NettyConnection> ready) {
            this.connection = connection;
            this.ssl = ssl;
            this.heartbeat = heartbeat;
            this.server = server;
            this.ready = ready;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            // A server before the fix of ServerGate may send a heartbeat ahead of its greeting.
            while (in.readableBytes() >= FrameDecoder.HEADER_BYTES && in.getInt(in.readerIndex()) == FrameDecoder.HEARTBEAT) {
                in.skipBytes(FrameDecoder.HEADER_BYTES);
            }
            if (in.readableBytes() < ACCEPTED.length) {
                return;
            }
            byte[] found = new byte[ACCEPTED.length];
            in.readBytes(found);
            if (!Arrays.equals(found, ACCEPTED)) {
                fail(ctx, new IOException(badGreeting(server, found)));
                return;
            }
            connection.authenticated(peerPrincipal(ssl));
            startHeartbeats(ctx, heartbeat, connection);
            ctx.pipeline().remove(this);
            ready.complete(connection);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                failure = done.cause();
                fail(ctx, new IOException("TLS handshake with " + server + " failed: " + reason(done.cause()),
                        done.cause()));
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (failure == null) {
                failure = cause;
            }
            fail(ctx, new IOException("TLS connection to " + server + " failed: " + reason(cause), cause));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            Throwable why = failure;
            fail(ctx, new IOException("TLS server " + server + " closed the connection before accepting it"
                    + (why == null ? " (did it require a client certificate we do not have?)"
                            : ": " + reason(why)), why));
            super.channelInactive(ctx);
        }

        private void fail(ChannelHandlerContext ctx, IOException e) {
            if (!ready.isDone()) {
                ready.completeExceptionally(e);
            }
            ctx.close();
        }
    }
}
