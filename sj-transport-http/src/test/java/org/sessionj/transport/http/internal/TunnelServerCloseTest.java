package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.transport.netty.internal.EventLoops;

/**
 * The cause of a hang seen once under load (a conformance test waiting 30 s to bind port 0): an idle
 * direct acceptor's sweep, running on one event loop, closed its HTTP port and waited for the port's
 * own loop; two such sweeps on two loops waiting for each other blocked both loops for ever, and every
 * later bind given one of them hung. Closing on an event loop must not wait for another loop.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TunnelServerCloseTest {
    @Test
    void closingOnAnEventLoopDoesNotWaitForTheLoopOfThePort() throws Exception {
        TunnelServer server = EmptyServer.bind();
        EventLoop portLoop = server.eventLoop();
        EventExecutor other = null;
        for (EventExecutor loop : EventLoops.shared(true).group()) {
            if (loop != portLoop) {
                other = loop;
            }
        }
        if (other == null) {
            server.close(); // one event loop only: nothing to deadlock with
            return;
        }
        CountDownLatch release = new CountDownLatch(1);
        portLoop.execute(() -> {
            try {
                release.await(20, TimeUnit.SECONDS); // the port's loop is busy (another sweep, say)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        CompletableFuture<Void> closed = new CompletableFuture<>();
        other.execute(() -> {
            server.close();
            closed.complete(null);
        });
        try {
            closed.get(5, TimeUnit.SECONDS); // before the fix: blocked until the port's loop was free
        } finally {
            release.countDown();
        }
        assertThat(closed).isDone();
    }

    @Test
    void closingOffTheEventLoopsWaitsUntilThePortIsFree() throws Exception {
        TunnelServer server = EmptyServer.bind();
        int port = server.port();
        server.close();
        try (java.net.ServerSocket again = new java.net.ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(new java.net.InetSocketAddress("127.0.0.1", port));
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }
}
