package org.sessionj.transport.netty.internal;

import io.netty.channel.ChannelFuture;
import java.util.concurrent.CompletableFuture;

/**
 * Waiting for Netty futures without Netty's monitor-based {@code await} (which would pin a virtual
 * thread): the future's listener completes a {@link CompletableFuture}, which parks.
 */
final class Futures {
    private Futures() {
    }

    /** A {@link CompletableFuture} completed (normally or not) when {@code future} is. */
    static CompletableFuture<Void> bridge(ChannelFuture future) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        future.addListener(f -> {
            if (f.isSuccess()) {
                done.complete(null);
            } else {
                done.completeExceptionally(f.cause());
            }
        });
        return done;
    }

    /** Waits until {@code future} is done, unless called on its event loop (which would deadlock). */
    static void awaitUninterruptibly(ChannelFuture future) {
        if (future.channel().eventLoop().inEventLoop()) {
            return;
        }
        bridge(future).exceptionally(failure -> null).join();
    }
}
