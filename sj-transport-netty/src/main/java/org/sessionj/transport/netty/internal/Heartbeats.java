package org.sessionj.transport.netty.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.support.Heartbeat;

/**
 * Runtime heartbeats on a TCP or TLS connection (see {@link Heartbeat}), in the pipeline between
 * the TLS handler (if any) and the frame decoder: when nothing was written for the interval it
 * writes a heartbeat, a frame header of length {@link FrameDecoder#HEARTBEAT} and nothing else, which
 * the peer's decoder drops; when nothing at all was read for the timeout it fails the connection,
 * so a blocked reader or writer wakes with an error that says so. Written by the event loop, never
 * by the program: a frozen peer process sends none.
 */
public final class Heartbeats extends IdleStateHandler {
    private final long timeoutNanos;

    /** Heartbeats as {@code settings} say (they must be {@linkplain Heartbeat#enabled() enabled}). */
    public Heartbeats(Heartbeat settings) {
        super(true, settings.timeoutNanos(), settings.intervalNanos(), 0, TimeUnit.NANOSECONDS);
        this.timeoutNanos = settings.timeoutNanos();
    }

    /** Adds heartbeats to the end of {@code channel}'s pipeline when {@code settings} turns them on. */
    public static void addIfEnabled(io.netty.channel.Channel channel, Heartbeat settings) {
        if (settings.enabled()) {
            channel.pipeline().addLast(new Heartbeats(settings));
        }
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent event) {
        if (event.state() == IdleState.WRITER_IDLE) {
            ctx.writeAndFlush(ctx.alloc().buffer(FrameDecoder.HEADER_BYTES).writeInt(FrameDecoder.HEARTBEAT),
                    ctx.voidPromise());
        } else if (event.state() == IdleState.READER_IDLE) {
            ctx.fireExceptionCaught(new IOException("no data and no heartbeat from the peer for "
                    + Duration.ofNanos(timeoutNanos) + ": its process is frozen or gone, or the network"
                    + " path is broken (sessionj.heartbeat.timeout)"));
        }
    }
}
