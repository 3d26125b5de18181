package org.sessionj.runtime.spi.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.FrameConnection;

/**
 * How the session layer writes and reads {@link Frame}s on any {@link Connection}: through its
 * {@link FrameConnection} capability when it has one (no Netty buffer involved), otherwise through its
 * {@code ByteBuf} methods, each buffer seen through a {@link ByteBufFrame} view. A frame of the other
 * kind than the connection's (a session's unread input carried from an in-JVM connection onto a
 * network one by a delegation, say) is copied.
 */
public final class Frames {
    private Frames() {
    }

    /**
     * A frame to write to {@code connection} next.
     *
     * @param connection where the frame will be written
     * @param capacityHint its initial capacity; it grows as written
     * @return an empty frame owned by the caller
     */
    public static Frame newFrame(Connection connection, int capacityHint) {
        if (connection instanceof FrameConnection frames) {
            return frames.newFrame(capacityHint);
        }
        return new ByteBufFrame(connection.frameBuffer(capacityHint));
    }

    /**
     * A frame for a control message (a failure or delegation notice), which any thread may write: a
     * {@link FrameConnection}'s frame, otherwise a buffer of the connection's allocator (not its
     * writer's recycled frame).
     *
     * @param connection where the frame will be written
     * @param capacityHint its initial capacity; it grows as written
     * @return an empty frame owned by the caller
     */
    public static Frame allocate(Connection connection, int capacityHint) {
        if (connection instanceof FrameConnection frames) {
            return frames.newFrame(capacityHint);
        }
        return new ByteBufFrame(connection.alloc().buffer(capacityHint));
    }

    /**
     * Writes {@code frame} to {@code connection}, which takes ownership of it (and releases it if the
     * write fails).
     *
     * @throws IOException as the connection's write
     */
    public static void write(Connection connection, Frame frame) throws IOException {
        if (connection instanceof FrameConnection frames) {
            frames.writeFrame(frame);
        } else {
            connection.write(toByteBuf(frame));
        }
    }

    /**
     * Writes {@code frame} to {@code connection} as {@link #write} and flushes the connection: through
     * {@link FrameConnection#writeFrameAndFlush} when it has that capability (one step where the
     * connection can make it one).
     *
     * @throws IOException as the connection's write or flush
     */
    public static void writeAndFlush(Connection connection, Frame frame) throws IOException {
        if (connection instanceof FrameConnection frames) {
            frames.writeFrameAndFlush(frame);
        } else {
            connection.write(toByteBuf(frame));
            connection.flush();
        }
    }

    /**
     * The next frame from {@code connection}, as {@link Connection#read}.
     *
     * @param timeoutNanos how long to wait; negative waits forever
     * @return the frame (the caller releases it), or null if the timeout passed first
     * @throws IOException as the connection's read
     */
    public static Frame read(Connection connection, long timeoutNanos) throws IOException {
        if (connection instanceof FrameConnection frames) {
            return frames.readFrame(timeoutNanos);
        }
        ByteBuf buf = connection.read(timeoutNanos);
        return buf == null ? null : new ByteBufFrame(buf);
    }

    /**
     * {@code frame} as a Netty buffer: the buffer under a view, or a copy of the readable bytes of any
     * other frame (which is released). The caller owns the result.
     *
     * @param frame a frame the caller owns
     * @return a buffer the caller owns
     */
    public static ByteBuf toByteBuf(Frame frame) {
        if (frame instanceof ByteBufFrame view) {
            return view.buf();
        }
        try {
            int length = frame.readableBytes();
            ByteBuf copy = Unpooled.buffer(length);
            if (frame.hasArray()) {
                copy.writeBytes(frame.array(), frame.arrayOffset() + frame.readerIndex(), length);
            } else {
                byte[] bytes = new byte[length];
                frame.getBytes(frame.readerIndex(), bytes);
                copy.writeBytes(bytes);
            }
            return copy;
        } finally {
            frame.release();
        }
    }

    /**
     * A frame of {@code buf}'s readable bytes that is not a Netty buffer (a copy; {@code buf} is released).
     *
     * @param buf a buffer the caller owns
     * @param into where to copy, empty, owned by the caller
     * @return {@code into}
     */
    public static Frame copyInto(ByteBuf buf, Frame into) {
        try {
            int length = buf.readableBytes();
            if (buf.hasArray()) {
                into.writeBytes(buf.array(), buf.arrayOffset() + buf.readerIndex(), length);
            } else {
                byte[] bytes = new byte[length];
                buf.getBytes(buf.readerIndex(), bytes);
                into.writeBytes(bytes);
            }
            return into;
        } finally {
            buf.release();
        }
    }
}
