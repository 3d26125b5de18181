package org.sessionj.transport.netty.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.runtime.spi.support.OwnerLook;

/**
 * Runtime heartbeats on a TCP or TLS connection (see {@link Heartbeat}), in the pipeline between
 * the TLS handler (if any) and the frame decoder: when nothing was written for the interval it
 * writes a heartbeat, a frame header of length {@link FrameDecoder#HEARTBEAT} and nothing else, which
 * the peer's decoder drops; when nothing at all was read for the timeout it fails the connection,
 * so a blocked reader or writer wakes with an error that says so. Written by the event loop, never
 * by the program: a frozen peer process sends none.
 *
 * <p>While its connection has stopped reading the socket (its program is behind), the peer cannot be heard, so
 * silence then is not the peer's: the timeout does not fail the connection meanwhile, and counts again from when
 * reading resumes. Before, a program that read nothing for the timeout while its peer sent more than the inbound
 * mark lost its connection to "no data and no heartbeat from the peer", however much the peer kept sending. A
 * writer blocked for such a peer meanwhile is the connection's own rule ({@link NettyConnection}: neither side can
 * move).
 *
 * <p>At each heartbeat it writes, it also looks at the thread of the session over the connection (adv18 A13,
 * {@link OwnerLook}): a thread that ended with the session open, seen at two heartbeats in a row, fails the
 * session, and the peer is told, instead of waiting for as long as this process lives.
 */
public final class Heartbeats extends IdleStateHandler {
    private final long timeoutNanos;
    /** The connection fed by this channel, asked whether it reads; null: judged by silence alone. */
    private final NettyConnection connection;
    /** The session's thread as the last heartbeat saw it ended, or null (event loop only). */
    private Thread ownerSeenEnded;

    /** Heartbeats as {@code settings} say (they must be {@linkplain Heartbeat#enabled() enabled}). */
    public Heartbeats(Heartbeat settings) {
        this(settings, null);
    }

    /**
     * Heartbeats as {@code settings} say (they must be {@linkplain Heartbeat#enabled() enabled}) for {@code connection}'s
     * channel (or null), whose paused reading does not count as the peer's silence.
     */
    public Heartbeats(Heartbeat settings, NettyConnection connection) {
        super(true, settings.timeoutNanos(), settings.intervalNanos(), 0, TimeUnit.NANOSECONDS);
        this.timeoutNanos = settings.timeoutNanos();
        this.connection = connection;
    }

    /** Adds heartbeats to the end of {@code channel}'s pipeline when {@code settings} turns them on. */
    public static void addIfEnabled(io.netty.channel.Channel channel, Heartbeat settings) {
        addIfEnabled(channel, settings, null);
    }

    /**
     * Adds heartbeats to the end of {@code channel}'s pipeline when {@code settings} turns them on, for
     * {@code connection} (or null), whose paused reading does not count as the peer's silence.
     */
    public static void addIfEnabled(io.netty.channel.Channel channel, Heartbeat settings, NettyConnection connection) {
        if (settings.enabled()) {
            channel.pipeline().addLast(new Heartbeats(settings, connection));
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        if (connection != null) {
            connection.heartbeats(this);
        }
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent event) {
        if (event.state() == IdleState.WRITER_IDLE) {
            if (connection != null) {
                ownerSeenEnded = OwnerLook.look(connection.ownerWatch(), ownerSeenEnded);
            }
            ctx.writeAndFlush(ctx.alloc().buffer(FrameDecoder.HEADER_BYTES).writeInt(FrameDecoder.HEARTBEAT),
                    ctx.voidPromise());
        } else if (event.state() == IdleState.READER_IDLE && (connection == null || !connection.readingPaused())) {
            ctx.fireExceptionCaught(new IOException("no data and no heartbeat from the peer for "
                    + Duration.ofNanos(timeoutNanos) + ": its process is frozen or gone, or the network"
                    + " path is broken (sessionj.heartbeat.timeout)"));
        }
    }
}
