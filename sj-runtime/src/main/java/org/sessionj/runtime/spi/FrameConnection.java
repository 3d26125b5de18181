package org.sessionj.runtime.spi;

import java.io.IOException;

/**
 * Optional capability of a connection that carries {@link Frame}s that are not Netty buffers (the
 * in-JVM one: its frames never leave the JVM, so they are plain heap frames, recycled per direction).
 * The session layer writes and reads through it when a connection has it, and through the
 * {@code ByteBuf} methods of {@link Connection} otherwise; so a program whose sessions are all in-JVM
 * initialises no Netty buffer class.
 *
 * <p>A connection with this capability still implements the {@code ByteBuf} methods (the transport
 * conformance suite and tools use them); a frame written one way can be read the other, in order, and
 * either kind of frame written through {@link #writeFrame} is accepted.
 */
public interface FrameConnection extends Connection {

    /**
     * A frame for the next {@link #writeFrame}, by the writing thread: recycled when the reader released
     * the last one, so a session in steady state allocates nothing per message.
     *
     * @param capacityHint the initial capacity; the frame grows as written
     */
    Frame newFrame(int capacityHint);

    /**
     * Queues {@code frame} for the peer, as {@link #write(io.netty.buffer.ByteBuf)}; the connection takes
     * ownership (and releases it if this fails).
     *
     * @throws IOException if this end or the peer has closed
     */
    void writeFrame(Frame frame) throws IOException;

    /**
     * Queues {@code frame} as {@link #writeFrame} and then {@linkplain #flush() flushes}: what the session
     * layer does to send a batch. A connection whose write and flush each take a lock (a blocking socket's,
     * shared with its heartbeats) may do both under one; the default makes the two calls.
     *
     * @param frame the frame; the connection takes ownership (and releases it if this fails)
     * @throws IOException if this end or the peer has closed, or the flush fails
     */
    default void writeFrameAndFlush(Frame frame) throws IOException {
        writeFrame(frame);
        flush();
    }

    /**
     * Waits for the next frame, as {@link #read(long)}; the caller owns (and must release) it.
     *
     * @param timeoutNanos how long to wait; negative waits forever
     * @return the frame, or {@code null} if the timeout passed first
     * @throws IOException if the peer closed (after every earlier frame was read) or the connection broke
     */
    Frame readFrame(long timeoutNanos) throws IOException;
}
