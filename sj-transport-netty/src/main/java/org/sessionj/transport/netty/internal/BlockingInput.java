package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.support.HeapFrame;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * The reading side of a {@link BlockingConnection}: blocking socket reads into an input buffer on the
 * reading thread (the session's, or the reader thread a selector needs), frames cut out of it behind
 * their lengths, the peer's heartbeats dropped, and the rules for frames that started and have not
 * finished ({@link UnfinishedFrames}: a deadline counting only the time spent waiting for the frame's
 * bytes, and the process-wide budget charged as the buffer grows).
 *
 * <p>The buffer grows as bytes arrive, never to what a header claims. It starts small
 * ({@link #GREETING_BUFFER}, made at the first read): an accepted connection whose requester has not
 * sent its first frame (a slowloris: one byte, then nothing) holds that much and no more, and none at
 * all before anyone reads it. After the first whole frame it is at least {@link #STEADY_BUFFER}, so
 * that a session's batched frames come in with few system calls.
 */
final class BlockingInput {
    /** The first input buffer: a requester's first frame (its HELLO) usually fits; a larger one grows it. */
    static final int GREETING_BUFFER = 512;
    /** The input buffer once a whole frame has come. */
    static final int STEADY_BUFFER = 8 * 1024;
    /** An empty input buffer larger than this (grown for a large frame) goes back to {@link #STEADY_BUFFER}. */
    private static final int SHRINK_ABOVE = 256 * 1024;
    private static final byte[] NONE = new byte[0];

    private final BlockingConnection connection;
    private final SocketChannel channel;
    private final InputStream input;
    private final BlockingKeeper keeper;
    private final NettySettings settings;
    /** How long a read may hear nothing before the peer is taken for gone (0: heartbeats off). */
    private final long silenceNanos;

    /** Bytes received and not yet returned, from {@code inStart} to {@code inEnd}; empty until the first read. */
    private byte[] in = NONE;
    private int inStart;
    private int inEnd;
    /** Whether a whole frame (heartbeats aside) has come: the buffer may then be {@link #STEADY_BUFFER}. */
    private boolean greeted;
    /** The peer closed (the reader saw the end of the stream): writes fail from then on, as on the event-loop path. */
    private volatile boolean endOfStream;
    /** The soTimeout currently set on the socket, in milliseconds (0: none). */
    private int soTimeoutMillis;
    /** Heartbeats received from the peer so far (by whichever thread reads: one at a time). */
    private volatile long heartbeatsReceived;
    /** The frame in the input buffer that has started and not finished, or null (the reading thread's). */
    private UnfinishedFrames.Frame partial;
    /** Time spent waiting in {@link #fill} for the bytes of {@link #partial}: its deadline counts only that. */
    private long partialWaited;
    /** Why an unfinished frame failed the connection (given up for a newer frame by another thread, which closed the socket), or null. */
    private volatile String frameFailure;

    BlockingInput(BlockingConnection connection, SocketChannel channel, BlockingKeeper keeper, NettySettings settings)
            throws IOException {
        this.connection = connection;
        this.channel = channel;
        this.input = channel.socket().getInputStream();
        this.keeper = keeper;
        this.settings = settings;
        this.silenceNanos = settings.heartbeat().enabled() ? settings.heartbeat().timeoutNanos() : 0;
    }

    /** Whether the peer closed its side (the end of the stream was read). */
    boolean endOfStream() {
        return endOfStream;
    }

    /** Why an unfinished frame failed the connection, or null. */
    String frameFailure() {
        return frameFailure;
    }

    long heartbeatsReceived() {
        return heartbeatsReceived;
    }

    /** Bytes waiting unread in the socket, or -1 if it is closed. */
    int unread() {
        try {
            return input.available();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Bytes of input buffer held (for tests). */
    int bufferBytes() {
        return in.length;
    }

    /** The connection closed: an unfinished frame gives its budget back (idempotent with the reading thread's). */
    void closed() {
        UnfinishedFrames.Frame frame = partial;
        if (frame != null) {
            frame.done();
        }
    }

    // ---- the reading thread's loops ----

    /**
     * {@link org.sessionj.runtime.spi.Connection#read}: the next frame, or null after {@code timeoutNanos}. A
     * failure is the connection's end (a timeout is not a failure): the buffer goes with it, on this thread,
     * the only one that touches it (hostile H5: a peer that sent part of a large frame and reset the
     * connection left the buffer reachable, through the connection, after its budget was given back).
     */
    ByteBuf read(long timeoutNanos) throws IOException {
        try {
            return (ByteBuf) readFrame(timeoutNanos, false);
        } catch (IOException | RuntimeException e) {
            release();
            throw e;
        }
    }

    /** As {@link #read}, the frame one of SJ's heap frames ({@link org.sessionj.runtime.spi.FrameConnection#readFrame}). */
    HeapFrame readHeap(long timeoutNanos) throws IOException {
        try {
            return (HeapFrame) readFrame(timeoutNanos, true);
        } catch (IOException | RuntimeException e) {
            release();
            throw e;
        }
    }

    /** Drops the input buffer and any unfinished frame's budget: the connection is done. */
    private void release() {
        dropPartial();
        in = NONE;
        inStart = 0;
        inEnd = 0;
    }

    /** The next frame, a heap frame if {@code heap} and a buffer otherwise, or null after {@code timeoutNanos}. */
    private Object readFrame(long timeoutNanos, boolean heap) throws IOException {
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        while (true) {
            Object frame;
            try {
                frame = bufferedFrame(heap);
            } catch (BadFrameException e) {
                connection.close(); // nothing after a bad header can be trusted
                throw e;
            }
            if (frame != null) {
                return frame;
            }
            if (endOfStream) {
                throw new IOException("connection closed by the peer (" + connection + ")");
            }
            long remaining = timeoutNanos < 0 ? -1 : deadline - System.nanoTime();
            if (timeoutNanos >= 0 && remaining <= 0) {
                return null;
            }
            long frameLeft = partialLeft();
            if (frameLeft < remaining || remaining < 0 && frameLeft != Long.MAX_VALUE) {
                fillHearing(frameLeft); // a wait the frame's deadline ends: partialLeft() tells
                continue;
            }
            if (!fillHearing(remaining)) {
                return null;
            }
        }
    }

    /** The reader thread of a connection a selector listens to: frames into {@code queue} until the end. */
    void pump(InboundQueue queue) {
        try {
            while (true) {
                ByteBuf frame = (ByteBuf) bufferedFrame(false);
                if (frame != null) {
                    queue.add(frame);
                } else if (endOfStream) {
                    break;
                } else {
                    long frameLeft = partialLeft();
                    fillHearing(frameLeft == Long.MAX_VALUE ? -1 : frameLeft);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!connection.isClosed()) {
                queue.fail(e instanceof IOException io ? io : new IOException(e.toString(), e));
            }
        }
        release(); // the pump's thread is the buffer's only reader; the connection is done (hostile H5)
        queue.end();
        if (!endOfStream) {
            connection.closeQuietly(); // broken: nothing more can be read
        }
    }

    /** {@link org.sessionj.runtime.spi.Connection#isReadable} without a selector's reader thread. */
    boolean isReadable() {
        skipHeartbeats();
        if (connection.isClosed() || endOfStream || inEnd - inStart >= FrameDecoder.HEADER_BYTES && wholeFrameBuffered()) {
            return true;
        }
        // Take what the kernel has without waiting, then look again.
        if (Thread.currentThread().isVirtual()) {
            connection.socketSwitched();
        }
        try {
            channel.configureBlocking(false);
            try {
                makeRoom(); // a partial frame fills the buffer
                int n = channel.read(ByteBuffer.wrap(in, inEnd, in.length - inEnd));
                if (n < 0) {
                    endOfStream = true;
                    return true;
                }
                inEnd += n;
                keeper.received(n);
            } finally {
                channel.configureBlocking(true);
            }
        } catch (IOException e) {
            return true; // the next read reports it
        }
        skipHeartbeats();
        return inEnd - inStart >= FrameDecoder.HEADER_BYTES && wholeFrameBuffered();
    }

    /**
     * As {@link #fill}, but a wait that hears nothing at all (no byte, not even a heartbeat) for the
     * heartbeat timeout fails: the peer's process is frozen or gone, or the path to it is broken.
     */
    private boolean fillHearing(long timeoutNanos) throws IOException {
        if (silenceNanos == 0) {
            return fill(timeoutNanos);
        }
        if (timeoutNanos < 0 && keeper.watchesReads()) {
            keeper.reading(); // the keeper ends the read if it hears nothing for the timeout
            try {
                return fill(-1);
            } finally {
                keeper.readDone();
            }
        }
        long start = System.nanoTime();
        while (true) {
            long now = System.nanoTime();
            long silent = now - start;
            if (silent >= silenceNanos) {
                throw connection.silence();
            }
            long slice = silenceNanos - silent;
            if (timeoutNanos >= 0) {
                long left = timeoutNanos - silent;
                if (left <= 0) {
                    return false;
                }
                slice = Math.min(slice, left);
            }
            if (fill(slice)) {
                return true;
            }
        }
    }

    // ---- unfinished frames ----

    /**
     * How long the unfinished frame in the input buffer may still take ({@link UnfinishedFrames}), or
     * {@link Long#MAX_VALUE} if none; a frame past its deadline fails the connection.
     */
    private long partialLeft() throws IOException {
        UnfinishedFrames.Frame frame = partial;
        if (frame == null) {
            return Long.MAX_VALUE;
        }
        long left = frame.allowanceNanos() - partialWaited;
        if (left > 0) {
            return left;
        }
        String reason = frame.overdue(partialWaited, inEnd - inStart - FrameDecoder.HEADER_BYTES);
        frameFailure = reason;
        dropPartial();
        connection.close();
        throw new IOException(reason);
    }

    /** The input buffer holds a frame that has not all arrived: it is tracked by the {@link UnfinishedFrames} rules. */
    private void trackPartial(int length) throws IOException {
        if (partial == null) {
            partial = settings.unfinished().start(length, connection.toString(), System.nanoTime(), reason -> {
                frameFailure = reason;
                connection.closeQuietly(); // ends a read waiting for the frame's bytes; the reader reports the reason
            });
            partialWaited = 0;
        }
        hold(in.length);
    }

    /** The unfinished frame now takes {@code bytes} of buffer; fails the connection if the budget refuses them. */
    private void hold(long bytes) throws IOException {
        if (partial != null && !partial.hold(bytes)) {
            String reason = partial.overBudget(bytes);
            frameFailure = reason;
            dropPartial();
            connection.close();
            throw new IOException(reason);
        }
    }

    private void dropPartial() {
        if (partial != null) {
            partial.done();
            partial = null;
        }
    }

    // ---- the buffer ----

    /** Drops the heartbeats at the front of the input buffer. */
    private void skipHeartbeats() {
        while (inEnd - inStart >= FrameDecoder.HEADER_BYTES && headerAt(inStart) == FrameDecoder.HEARTBEAT) {
            inStart += FrameDecoder.HEADER_BYTES;
            heartbeatsReceived++; // the reading thread is the only writer
        }
        if (inStart == inEnd) {
            inStart = 0;
            inEnd = 0;
        }
    }

    private int headerAt(int index) {
        return ((in[index] & 0xff) << 24) | ((in[index + 1] & 0xff) << 16) | ((in[index + 2] & 0xff) << 8)
                | (in[index + 3] & 0xff);
    }

    private boolean wholeFrameBuffered() {
        int length = headerAt(inStart);
        return length < 0 || length > settings.maxFrameBytes() || inEnd - inStart >= FrameDecoder.HEADER_BYTES + length;
    }

    /**
     * The next whole frame in the input buffer (copied out into a heap frame if {@code heap}, a buffer
     * otherwise), or null if none is complete yet.
     */
    private Object bufferedFrame(boolean heap) throws IOException {
        skipHeartbeats();
        int available = inEnd - inStart;
        if (available < FrameDecoder.HEADER_BYTES) {
            return null;
        }
        int length = headerAt(inStart);
        if (length < 0 || length > settings.maxFrameBytes()) {
            // The event-loop path's words (FrameDecoder), so that a user sees one message for one fault.
            throw new BadFrameException(FrameDecoder.badLength(length, settings.maxFrameBytes()) + " (" + connection + ")");
        }
        if (available < FrameDecoder.HEADER_BYTES + length) {
            // Not all there yet. The buffer grows as bytes arrive (fill doubles it when full), never to
            // what the header claims: a peer that sends a header claiming 16 MiB and then nothing must
            // not make this side allocate 16 MiB (a thousand such peers would take the heap).
            if (inStart > 0 && inEnd == in.length) {
                System.arraycopy(in, inStart, in, 0, available);
                inStart = 0;
                inEnd = available;
            }
            trackPartial(length);
            return null;
        }
        Object frame;
        if (heap) {
            frame = connection.inboundHeapFrame(length).writeBytes(in, inStart + FrameDecoder.HEADER_BYTES, length);
        } else {
            frame = connection.inboundFrame(length).writeBytes(in, inStart + FrameDecoder.HEADER_BYTES, length);
        }
        inStart += FrameDecoder.HEADER_BYTES + length;
        dropPartial();
        if (inStart == inEnd) {
            inStart = 0;
            inEnd = 0;
            if (in.length > SHRINK_ABOVE || in.length < STEADY_BUFFER) {
                // A large frame's buffer is not kept for the connection's life; a greeting's small one
                // makes way for the session's.
                in = new byte[STEADY_BUFFER];
            }
        }
        greeted = true;
        return frame;
    }

    /**
     * Reads what the socket has (blocking up to {@code timeoutNanos}, negative: for ever) into the
     * input buffer. False if the timeout passed first; the end of the stream is noted.
     */
    private boolean fill(long timeoutNanos) throws IOException {
        makeRoom();
        int millis = timeoutNanos < 0 ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE,
                TimeUnit.NANOSECONDS.toMillis(timeoutNanos + 999_999)));
        try {
            if (millis != soTimeoutMillis) {
                channel.socket().setSoTimeout(millis);
                soTimeoutMillis = millis;
            }
            if (millis == 0 && Thread.currentThread().isVirtual()) {
                connection.socketSwitched(); // a timed read leaves the socket's mode as it was; this one does not
            }
            long start = partial == null ? 0 : System.nanoTime();
            int n;
            try {
                n = input.read(in, inEnd, in.length - inEnd);
            } finally {
                if (partial != null) {
                    partialWaited += System.nanoTime() - start;
                }
            }
            if (n < 0) {
                endOfStream = true;
            } else {
                inEnd += n;
                keeper.received(n);
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            throw connection.failure("reading", e);
        }
    }

    /**
     * Room for the next read: the first buffer ({@link #GREETING_BUFFER}, or {@link #STEADY_BUFFER}
     * once greeted), or a full one's bytes moved to the front, or doubled (it grows as bytes come, up to
     * a frame, each doubling charged to the budget for unfinished frames first).
     */
    private void makeRoom() throws IOException {
        if (in == NONE) {
            in = new byte[greeted ? STEADY_BUFFER : GREETING_BUFFER];
            return;
        }
        if (inEnd == in.length) {
            if (inStart > 0) {
                System.arraycopy(in, inStart, in, 0, inEnd - inStart);
                inEnd -= inStart;
                inStart = 0;
            } else {
                int size = 2 * in.length;
                int length = inEnd - inStart >= FrameDecoder.HEADER_BYTES ? headerAt(inStart) : -1;
                if (length >= 0 && length <= settings.maxFrameBytes()) {
                    if (partial == null) {
                        trackPartial(length); // a full buffer holds a frame not all there
                    }
                    // Doubling, but never past the frame: its header is checked against the maximum already.
                    size = (int) Math.max(in.length + 1L, Math.min(size, (long) FrameDecoder.HEADER_BYTES + length));
                }
                hold(size);
                try {
                    in = java.util.Arrays.copyOf(in, size);
                } catch (OutOfMemoryError e) {
                    // The heap is full (peers holding large unfinished frames, say): this connection's frame
                    // fails the session with a reason instead of an Error escaping into the program.
                    throw new IOException("cannot buffer the frame arriving from the peer: no heap left for "
                            + size + " bytes (" + e.getMessage() + "; " + connection + ")");
                }
            }
        }
    }

    /** A frame header no SJ peer sends: the stream cannot be read further. */
    private static final class BadFrameException extends IOException {
        private static final long serialVersionUID = 1L;

        BadFrameException(String message) {
            super(message);
        }
    }
}
