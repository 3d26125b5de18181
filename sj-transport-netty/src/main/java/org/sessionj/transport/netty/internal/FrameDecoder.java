package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * Splits the byte stream into frames: a 4-byte big-endian length, then that many bytes. A length
 * of {@link #HEARTBEAT} is a runtime heartbeat (see {@link Heartbeats}), dropped here. Another negative
 * or oversize length means the peer is not an SJ peer (or is broken): the stream is rejected with
 * an error naming the length found, and nothing after it is decoded.
 *
 * <p>A frame that spans reads is kept in Netty's cumulation buffer, which grows as its bytes arrive
 * (never to the length its header claims), under the {@link UnfinishedFrames} rules: its bytes count
 * toward the process's budget for unfinished frames, and it must be whole by its deadline (time while
 * the connection had stopped reading, its reader behind, not counted), checked by one timer per
 * connection at a time; either failure fails the connection with an {@link UnfinishedFrameException}.
 *
 * <p>A whole frame is handed on as a slice of the buffer it was read into only when it is at least half of that
 * buffer; a smaller one is copied out into a heap frame of its own (its connection's spare when there is one, so a
 * session in steady state allocates nothing), and the read buffer goes back to the pool at once. A slice keeps its
 * whole buffer (up to 64 KiB of pooled direct memory, or the TLS handler's output buffer) while it waits unread: one
 * connection whose 10-byte frames each came in a 64 KiB read padded with heartbeats pinned 256 MiB, all the direct
 * memory of the process, charged 138 bytes a frame (hostile18 H10). Now a queued frame holds at most twice its bytes,
 * and is charged that ({@link NettyConnection}).
 *
 * <p>A heartbeat follows an interval of silence, so a peer that sends more than {@link #HEARTBEAT_BURST} beyond one a
 * millisecond floods rather than beats: the connection fails with a {@link HeartbeatFloodException}.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    /** Bytes of the length prefix in front of every frame. */
    public static final int HEADER_BYTES = 4;
    /** The length field of a heartbeat: a header with no frame behind it. */
    public static final int HEARTBEAT = -1;
    /**
     * Heartbeats a peer may send beyond one a millisecond before its connection fails. An honest peer sends one per
     * interval of its own silence; a network stall may deliver them in a burst (a 120 s stall of a peer beating every
     * 20 ms is 6,000), and 10,000 of them cost the event loop some tens of microseconds, so the bound is for a flood.
     */
    public static final int HEARTBEAT_BURST = 10_000;
    private static final long HEARTBEAT_REFILL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final int maxFrameBytes;
    private boolean failed;
    /** Told how many frame bytes (not heartbeats) came in, or null. */
    private final NettyConnection receiver;
    private final UnfinishedFrames rules;
    /** The frame that has started and not finished, or null. */
    private UnfinishedFrames.Frame partial;
    /** The connection's paused reading time ({@link NettyConnection#pausedNanos}) when {@link #partial} started. */
    private long pausedAtStart;
    /** The pending deadline check, or null. */
    private ScheduledFuture<?> check;
    /**
     * Heartbeats the peer may still send at once (a token bucket refilled one a millisecond), and when it was last
     * refilled (the first heartbeat's time until then).
     */
    private long heartbeatTokens = HEARTBEAT_BURST;
    private long heartbeatsFilledAt = Long.MIN_VALUE;

    /** A decoder accepting frames of up to {@code maxFrameBytes} bytes, under the process's {@link UnfinishedFrames#shared rules}. */
    public FrameDecoder(int maxFrameBytes) {
        this(maxFrameBytes, null, UnfinishedFrames.shared());
    }

    /** A decoder accepting frames of up to {@code maxFrameBytes} bytes, under {@code rules} for unfinished frames. */
    public FrameDecoder(int maxFrameBytes, UnfinishedFrames rules) {
        this(maxFrameBytes, null, rules);
    }

    /**
     * A decoder accepting frames of up to {@code maxFrameBytes} bytes that tells {@code receiver} how
     * many frame bytes came in ({@link NettyConnection#receivedBytes}).
     */
    public FrameDecoder(int maxFrameBytes, NettyConnection receiver) {
        this(maxFrameBytes, receiver, UnfinishedFrames.shared());
    }

    /**
     * A decoder accepting frames of up to {@code maxFrameBytes} bytes that tells {@code receiver} how
     * many frame bytes came in, under {@code rules} for unfinished frames.
     */
    public FrameDecoder(int maxFrameBytes, NettyConnection receiver, UnfinishedFrames rules) {
        this.maxFrameBytes = maxFrameBytes;
        this.receiver = receiver;
        this.rules = rules;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (receiver != null && msg instanceof ByteBuf bytes) {
            receiver.received(bytes.readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int length;
        while (true) {
            if (in.readableBytes() < HEADER_BYTES) {
                return;
            }
            length = in.getInt(in.readerIndex());
            if (length != HEARTBEAT) {
                break;
            }
            in.skipBytes(HEADER_BYTES);
            if (receiver != null) {
                receiver.heartbeatReceived(HEADER_BYTES); // a heartbeat is no progress toward a frame
            }
            if (heartbeatsFilledAt == Long.MIN_VALUE) {
                heartbeatsFilledAt = ctx.executor().ticker().nanoTime(); // the first heartbeat: the bucket starts full
            }
            if (--heartbeatTokens < 0 && !refillHeartbeats(ctx)) {
                failed = true;
                in.skipBytes(in.readableBytes());
                throw new HeartbeatFloodException("the peer sent more than " + HEARTBEAT_BURST + " heartbeats beyond"
                        + " one a millisecond: a flood, not heartbeats (an SJ peer sends one after each interval of"
                        + " silence, sessionj.heartbeat.interval); the connection is closed");
            }
        }
        if (length < 0) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException(badLength(length, maxFrameBytes));
        }
        if (length > maxFrameBytes) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw new TooLongFrameException(badLength(length, maxFrameBytes));
        }
        if (in.readableBytes() < HEADER_BYTES + length) {
            unfinished(ctx, length, in.readableBytes());
            return;
        }
        if (partial != null) {
            partial.done();
            partial = null;
        }
        in.skipBytes(HEADER_BYTES);
        // A slice keeps the whole buffer: only for a frame that is at least half of it (writerIndex + the room it
        // may still grow into without reallocating is what the buffer holds); a smaller frame is copied out.
        if (2L * length >= (long) in.writerIndex() + in.maxFastWritableBytes()) {
            out.add(in.readRetainedSlice(length));
        } else {
            ByteBuf copy = receiver != null ? receiver.inboundFrame(length) : ctx.alloc().heapBuffer(length, length);
            copy.writeBytes(in, length);
            out.add(copy);
        }
    }

    /**
     * The heartbeat bucket ran dry: refills it by the milliseconds since it was last filled (the clock is read only
     * here and at the first heartbeat, not per heartbeat); false when the peer still sent too many.
     */
    private boolean refillHeartbeats(ChannelHandlerContext ctx) {
        long now = ctx.executor().ticker().nanoTime();
        long earned = (now - heartbeatsFilledAt) / HEARTBEAT_REFILL_NANOS;
        if (earned <= 0) {
            return false;
        }
        heartbeatsFilledAt += earned * HEARTBEAT_REFILL_NANOS;
        heartbeatTokens = Math.min(HEARTBEAT_BURST, heartbeatTokens + earned);
        return heartbeatTokens >= 0;
    }

    /** A frame of {@code length} has started and not finished: {@code held} bytes of it (header included) are here. */
    private void unfinished(ChannelHandlerContext ctx, int length, int held) {
        if (!ctx.channel().isActive()) {
            return; // the last decode of a closed channel: its bytes are released, not held
        }
        if (partial == null) {
            long now = ctx.executor().ticker().nanoTime();
            partial = rules.start(length, describe(ctx), now,
                    reason -> ctx.executor().execute(() -> fail(ctx, reason)));
            pausedAtStart = paused(now);
            if (check == null) {
                check = ctx.executor().schedule(() -> checkDeadline(ctx), partial.allowanceNanos(), TimeUnit.NANOSECONDS);
            }
        }
        if (!partial.hold(held)) {
            String reason = partial.overBudget(held);
            failed = true;
            partial.done();
            partial = null;
            throw new UnfinishedFrameException(reason);
        }
    }

    /** The deadline check: fails an unfinished frame past its deadline, or looks again at the next one. */
    private void checkDeadline(ChannelHandlerContext ctx) {
        check = null;
        UnfinishedFrames.Frame frame = partial;
        if (frame == null || failed) {
            return;
        }
        long now = ctx.executor().ticker().nanoTime();
        long active = now - frame.startNanos() - (paused(now) - pausedAtStart);
        long left = frame.allowanceNanos() - active;
        if (left > 0) {
            check = ctx.executor().schedule(() -> checkDeadline(ctx), left, TimeUnit.NANOSECONDS);
            return;
        }
        ByteBuf held = internalBuffer();
        fail(ctx, frame.overdue(active, held.readableBytes() - HEADER_BYTES));
    }

    /** Fails the connection (on its event loop): nothing more is decoded. */
    private void fail(ChannelHandlerContext ctx, String reason) {
        if (failed) {
            return;
        }
        failed = true;
        release();
        ctx.fireExceptionCaught(new UnfinishedFrameException(reason));
    }

    private long paused(long now) {
        return receiver == null ? 0 : receiver.pausedNanos(now);
    }

    private String describe(ChannelHandlerContext ctx) {
        return receiver != null ? receiver.toString() : "peer " + ctx.channel().remoteAddress();
    }

    private void release() {
        if (partial != null) {
            partial.done();
            partial = null;
        }
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        release();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        try {
            super.channelInactive(ctx);
        } finally {
            release();
        }
    }

    /** An unfinished frame broke the {@link UnfinishedFrames} rules: the connection fails with the reason. */
    public static final class UnfinishedFrameException extends DecoderException {
        private static final long serialVersionUID = 1L;

        UnfinishedFrameException(String message) {
            super(message);
        }
    }

    /** The peer sent heartbeats faster than any heartbeat interval ({@link #HEARTBEAT_BURST}): the connection fails. */
    public static final class HeartbeatFloodException extends CorruptedFrameException {
        private static final long serialVersionUID = 1L;

        HeartbeatFloodException(String message) {
            super(message);
        }
    }

    /**
     * Why a frame header's {@code length} is refused, for both read paths (this decoder and the blocking
     * input), so that one fault reads the same. Four printable ASCII bytes are text, not a length: the peer
     * speaks another protocol (adv15 A24: an HTTP server's "HTTP/1.1 400" read as 1,213,486,160 bytes; a
     * browser's or a health check's "GET " sent to a session port).
     */
    public static String badLength(int length, int maxFrameBytes) {
        String text = asText(length);
        if (text != null) {
            return "bad frame header from the peer: it sent the text '" + text + "…' (read as length " + length
                    + ") where a 4-byte frame length belongs" + (text.equals("HTTP")
                    ? ", the start of an HTTP response: an HTTP server answered, not an SJ peer (is this the SJ"
                            + " server's session port?)"
                    : HTTP_REQUESTS.contains(text) ? ", the start of an HTTP request: an HTTP client (a browser, curl,"
                            + " a health check) connected, not an SJ peer"
                    : ": the peer speaks another protocol than SJ's (is it an SJ peer, on an SJ session port?)");
        }
        return "bad frame header from the peer: length " + length + (length < 0
                ? " is negative (expected a 4-byte length in 0.." + maxFrameBytes + "; is the peer an SJ peer?)"
                : " exceeds the maximum frame size of " + maxFrameBytes
                        + " bytes (sessionj.tcp.maxFrameBytes; is the peer an SJ peer?)");
    }

    /** The first four bytes of the HTTP/1.1 requests (and of HTTP/2's preface, "PRI * HTTP/2.0"). */
    private static final java.util.Set<String> HTTP_REQUESTS = java.util.Set.of("GET ", "POST", "PUT ", "HEAD",
            "DELE", "OPTI", "PATC", "CONN", "TRAC", "PRI ");

    /** The four bytes of {@code header} as text if each is printable ASCII, else null. */
    private static String asText(int header) {
        char[] chars = new char[HEADER_BYTES];
        for (int i = 0; i < HEADER_BYTES; i++) {
            int b = (header >>> (24 - 8 * i)) & 0xff;
            if (b < 0x20 || b > 0x7e) {
                return null;
            }
            chars[i] = (char) b;
        }
        return new String(chars);
    }
}
