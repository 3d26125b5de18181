package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.transport.netty.internal.NettyConnection;
import org.sessionj.transport.netty.internal.NettySettings;

/**
 * The server's greeting ({@code SJT1}) is the first thing a client reads after the TLS handshake, however
 * long the handshake takes. Both ends run in embedded channels whose clocks the test moves, so a
 * handshake that outlasts the heartbeat interval is made, not waited for. Before the fix the server's
 * heartbeats started with the channel: one queued during a slow handshake went out ahead of the
 * greeting and the client failed with "bad greeting" (seen under load in the chat's tls client).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TlsGreetingTest {
    private static final KeyMaterial SERVER = Certificates.selfSigned("server", Certificates.localhostNames());
    private static final Heartbeat FAST = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.SECONDS.toNanos(5));

    private final SslContext serverContext = context(true);
    private final SslContext clientContext = context(false);
    private final TlsChannelSetup setup = new TlsChannelSetup(NettySettings.fromSystemProperties().withHeartbeat(FAST),
            () -> serverContext, () -> clientContext, Runnable::run); // embedded channels: the handshake's tasks inline
    private final EmbeddedChannel server = new EmbeddedChannel();
    private final EmbeddedChannel client = new EmbeddedChannel();
    private final List<NettyConnection> accepted = new ArrayList<>();
    private final CompletableFuture<NettyConnection> ready = new CompletableFuture<>();

    private static SslContext context(boolean server) {
        try {
            SslContext context = server ? TlsContexts.server(TlsConfig.builder().keyMaterial(SERVER).build())
                    : TlsContexts.client(TlsConfig.builder().trust(SERVER.certificate()).build());
            assertThat(context).isNotNull();
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterEach
    void close() {
        server.finishAndReleaseAll();
        client.finishAndReleaseAll();
    }

    /** Moves every byte each side has written to the other; true if any moved. */
    private boolean shuttle() {
        boolean moved = false;
        for (ByteBuf b; (b = client.readOutbound()) != null; moved = true) {
            server.writeInbound(b);
        }
        for (ByteBuf b; (b = server.readOutbound()) != null; moved = true) {
            client.writeInbound(b);
        }
        return moved;
    }

    private void shuttleAll() {
        for (int i = 0; i < 100 && shuttle(); i++) {
            // until both sides are quiet
        }
    }

    @Test
    void aHandshakeLongerThanTheHeartbeatIntervalStillStartsWithTheGreeting() throws Exception {
        setup.initAccepted(server, accepted::add);
        setup.initConnecting(client, "localhost", 4433, ready);
        // The client's hello reaches the server, which answers; then the client is slow: the server's
        // clock passes ten heartbeat intervals before the client's Finished arrives.
        shuttle();
        assertThat(server.pipeline().get(SslHandler.class).handshakeFuture().isDone()).isFalse();
        server.advanceTimeBy(1, TimeUnit.SECONDS);
        server.runScheduledPendingTasks();
        client.advanceTimeBy(1, TimeUnit.SECONDS);
        client.runScheduledPendingTasks();
        shuttleAll();

        assertThat(ready).isCompleted();
        assertThat(ready.get()).isNotNull();
        assertThat(accepted).hasSize(1);
    }

    /**
     * Both ends' engines hand their delegated tasks (key exchange, signature, certificate checks) to the
     * setup's executor, the pool of {@code TlsHandshakes} outside tests, never run them on the event loop.
     * Before, only the accepting end did: a client opening many TLS connections ran each handshake's
     * cryptography on the loop that carries its other sessions.
     */
    @Test
    void bothEndsRunTheirHandshakesDelegatedTasksOnTheSetupsExecutor() throws Exception {
        java.util.concurrent.atomic.AtomicInteger tasks = new java.util.concurrent.atomic.AtomicInteger();
        TlsChannelSetup counting = new TlsChannelSetup(NettySettings.fromSystemProperties().withHeartbeat(FAST),
                () -> serverContext, () -> clientContext, task -> {
                    tasks.incrementAndGet();
                    task.run();
                });
        EmbeddedChannel connecting = new EmbeddedChannel();
        try {
            counting.initConnecting(connecting, "localhost", 4433, ready);
            setup.initAccepted(server, accepted::add); // the server's tasks inline, not counted
            for (int i = 0; i < 100; i++) {
                boolean moved = false;
                for (ByteBuf b; (b = connecting.readOutbound()) != null; moved = true) {
                    server.writeInbound(b);
                }
                for (ByteBuf b; (b = server.readOutbound()) != null; moved = true) {
                    connecting.writeInbound(b);
                }
                connecting.runPendingTasks();
                if (!moved) {
                    break;
                }
            }
            assertThat(ready).isCompleted();
            assertThat(tasks.get()).as("the connecting engine's delegated tasks handed to the executor").isPositive();
        } finally {
            connecting.finishAndReleaseAll();
        }
    }

    @Test
    void heartbeatsRunOnceTheGateHasPassed() throws Exception {
        setup.initAccepted(server, accepted::add);
        setup.initConnecting(client, "localhost", 4433, ready);
        shuttleAll();
        assertThat(ready).isCompleted();
        assertThat(ready.get()).isNotNull();
        int before = client.pipeline().names().size();
        assertThat(server.pipeline().get(org.sessionj.transport.netty.internal.Heartbeats.class)).isNotNull();
        assertThat(client.pipeline().get(org.sessionj.transport.netty.internal.Heartbeats.class)).isNotNull();

        server.advanceTimeBy(1, TimeUnit.SECONDS);
        server.runScheduledPendingTasks();
        ByteBuf heartbeat = server.readOutbound();
        assertThat(heartbeat).as("the idle server sends a heartbeat (encrypted)").isNotNull();
        client.writeInbound(heartbeat);
        assertThat(client.isActive()).isTrue();
        assertThat(client.pipeline().names()).hasSize(before);
    }

    @Test
    void aBadGreetingSaysWhatWasExpectedAndWhatCame() {
        // A TLS server that is not an SJ acceptor (an HTTPS server answering): its first bytes are "HTTP".
        setup.initConnecting(client, "localhost", 4433, ready);
        EmbeddedChannel plain = new EmbeddedChannel(serverContext.newHandler(server.alloc()));
        try {
            for (int i = 0; i < 100; i++) {
                boolean moved = false;
                for (ByteBuf b; (b = client.readOutbound()) != null; moved = true) {
                    plain.writeInbound(b);
                }
                for (ByteBuf b; (b = plain.readOutbound()) != null; moved = true) {
                    client.writeInbound(b);
                }
                if (!moved) {
                    break;
                }
            }
            assertThat(plain.pipeline().get(SslHandler.class).handshakeFuture().isSuccess()).isTrue();
            plain.writeAndFlush(Unpooled.copiedBuffer("HTTP/1.1 400 Bad Request\r\n", StandardCharsets.US_ASCII));
            for (ByteBuf b; (b = plain.readOutbound()) != null; ) {
                client.writeInbound(b);
            }
        } finally {
            plain.finishAndReleaseAll();
        }
        assertThat(ready).isCompletedExceptionally();
        try {
            ready.get();
        } catch (ExecutionException | InterruptedException e) {
            assertThat(e.getCause()).isInstanceOf(IOException.class).hasMessage("TLS peer localhost:4433 is not an SJ"
                    + " TLS acceptor: expected its greeting \"SJT1\" (53 4a 54 31) as the first bytes after the"
                    + " handshake, found 48 54 54 50 (\"HTTP\")");
        }
        assertThat(TlsChannelSetup.badGreeting("h:1", new byte[] {0, 0, 0, 5})).endsWith("found 00 00 00 05");
    }
}
