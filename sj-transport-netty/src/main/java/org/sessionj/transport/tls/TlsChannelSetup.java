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
import java.nio.charset.StandardCharsets;
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
    /** How many of a non-TLS peer's first bytes a failed handshake's reason shows. */
    private static final int SHOWN_BYTES = 16;

    /**
     * Runs the server engines' delegated tasks (a handshake's key exchange and signature) off the event
     * loops. Run inline, as Netty does by default, each accepted handshake held its event loop for its
     * cryptography, and every established session on that loop waited: a flood of honest TLS handshakes
     * (8 clients, 10 s, load ~45) took an established session's round trips from a median of 0.19 ms to
     * 733 ms. At most one task per connection in its TLS handshake is queued, and those are bounded by
     * {@code sessionj.maxPendingHandshakes}; one thread per core, daemon, gone when idle.
     */
    private static final java.util.concurrent.ThreadPoolExecutor HANDSHAKE_TASKS = handshakeTasks();

    private static java.util.concurrent.ThreadPoolExecutor handshakeTasks() {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        java.util.concurrent.ThreadPoolExecutor executor = new java.util.concurrent.ThreadPoolExecutor(threads, threads,
                30, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(),
                Thread.ofPlatform().daemon().name("sj-tls-handshake-", 0).factory());
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    private final NettySettings settings;
    private final Supplier<SslContext> serverContext;
    private final Supplier<SslContext> clientContext;

    /** Where accepted connections' TLS engines run their delegated tasks ({@link #HANDSHAKE_TASKS}). */
    private final java.util.concurrent.Executor handshakeTasks;

    TlsChannelSetup(NettySettings settings, Supplier<SslContext> serverContext, Supplier<SslContext> clientContext) {
        this(settings, serverContext, clientContext, HANDSHAKE_TASKS);
    }

    /** With the accepted side's delegated tasks run on {@code handshakeTasks} (a test's embedded channels: inline). */
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

    /**
     * Bytes that are no TLS record at all (an HTTP request, an SJ frame in the clear) are named by their
     * first bytes; any other failure by its innermost reason ({@link #reason}).
     */
    @Override
    public String handshakeFailure(Throwable cause) {
        if (cause instanceof io.netty.handler.ssl.NotSslRecordException && cause.getMessage() != null) {
            // Netty's message ends with a hex dump of everything received: name the first bytes only.
            String message = cause.getMessage();
            String hex = message.substring(message.lastIndexOf(' ') + 1);
            int bytes = Math.min(hex.length() / 2, SHOWN_BYTES);
            byte[] found = new byte[bytes];
            try {
                for (int i = 0; i < bytes; i++) {
                    found[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
                }
            } catch (NumberFormatException e) {
                return "expected a TLS record (a ClientHello), found bytes that are none";
            }
            return "expected a TLS record (a ClientHello), found " + describe(found)
                    + (hex.length() / 2 > bytes ? " …" : "");
        }
        return reason(cause);
    }

    @Override
    public void initConnecting(Channel channel, String host, int port, CompletableFuture<NettyConnection> ready) {
        TlsConnection connection = new TlsConnection(channel, settings);
        SslHandler ssl = clientContext.get().newHandler(channel.alloc(), host, port);
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
    private static void startHeartbeats(ChannelHandlerContext gate, Heartbeat heartbeat) {
        if (heartbeat.enabled()) {
            gate.pipeline().addAfter(gate.name(), null, new Heartbeats(heartbeat));
        }
    }

    /** What a client says when the first bytes after the handshake are not the greeting. */
    static String badGreeting(String server, byte[] found) {
        return "TLS peer " + server + " is not an SJ TLS acceptor: expected its greeting \"SJT1\" (53 4a 54 31) as the"
                + " first bytes after the handshake, found " + describe(found);
    }

    /** Bytes in hex, followed by their text when all are printable ASCII. */
    private static String describe(byte[] found) {
        StringBuilder hex = new StringBuilder();
        boolean printable = true;
        for (byte b : found) {
            hex.append(hex.isEmpty() ? "" : " ").append(String.format("%02x", b & 0xff));
            printable &= b >= 0x20 && b < 0x7f;
        }
        return hex + (printable ? " (\"" + new String(found, StandardCharsets.US_ASCII) + "\")" : "");
    }

    /** The innermost message of a failure, with what it means for the client in front. */
    static String reason(Throwable cause) {
        Throwable innermost = cause;
        boolean untrusted = false;
        boolean closed = false;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            innermost = t;
            untrusted |= t instanceof java.security.cert.CertPathBuilderException
                    || t instanceof java.security.cert.CertPathValidatorException;
            closed |= t instanceof java.nio.channels.ClosedChannelException;
        }
        String message = innermost.getMessage() == null ? innermost.getClass().getSimpleName() : innermost.getMessage();
        if (untrusted) {
            return "the peer's certificate is not trusted (" + message + ")";
        }
        if (message.contains("subject alternative") || message.contains("No name matching")) {
            return "the server's certificate does not name the host connected to (" + message + ")";
        }
        if (message.contains("certificate_required") || message.contains("bad_certificate")
                || message.contains("certificate_unknown") || message.contains("unknown_ca")) {
            return "the peer rejected our certificate or its absence (" + message + ")";
        }
        if (closed) {
            return "the peer closed the connection during the handshake (is it a TLS acceptor?)";
        }
        return message;
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
                    startHeartbeats(ctx, heartbeat); // after the greeting, never before it
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
            startHeartbeats(ctx, heartbeat);
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
