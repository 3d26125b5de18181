package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Splits the byte stream into frames: a 4-byte big-endian length, then that many bytes. A length
 * of {@link #HEARTBEAT} is a runtime heartbeat (see {@link Heartbeats}), dropped here. Another negative
 * or oversize length means the peer is not an SJ peer (or is broken): the stream is rejected with
 * an error naming the length found, and nothing after it is decoded.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    /** Bytes of the length prefix in front of every frame. */
    public static final int HEADER_BYTES = 4;
    /** The length field of a heartbeat: a header with no frame behind it. */
    public static final int HEARTBEAT = -1;

    private final int maxFrameBytes;
    private boolean failed;
    /** Told how many frame bytes (not heartbeats) came in, or null. */
    private final NettyConnection receiver;

    /** A decoder accepting frames of up to {@code maxFrameBytes} bytes. */
    public FrameDecoder(int maxFrameBytes) {
        this(maxFrameBytes, null);
    }

    /**
     * A decoder accepting frames of up to {@code maxFrameBytes} bytes that tells {@code receiver} how
     * many frame bytes came in ({@link NettyConnection#receivedBytes}).
     */
    public FrameDecoder(int maxFrameBytes, NettyConnection receiver) {
        this.maxFrameBytes = maxFrameBytes;
        this.receiver = receiver;
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
        }
        if (length < 0) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException("bad frame header from the peer: length " + length
                    + " is negative (expected a 4-byte length in 0.." + maxFrameBytes + "; is the peer an SJ peer?)");
        }
        if (length > maxFrameBytes) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw new TooLongFrameException("bad frame header from the peer: length " + length
                    + " exceeds the maximum frame size of " + maxFrameBytes
                    + " bytes (sessionj.tcp.maxFrameBytes; is the peer an SJ peer?)");
        }
        if (in.readableBytes() < HEADER_BYTES + length) {
            return;
        }
        in.skipBytes(HEADER_BYTES);
        out.add(in.readRetainedSlice(length));
    }
}
