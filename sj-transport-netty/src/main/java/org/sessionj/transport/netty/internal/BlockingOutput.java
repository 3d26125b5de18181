package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.sessionj.runtime.spi.Frame;

/**
 * The writing side of a {@link BlockingConnection}: frames are copied behind their length into an
 * output buffer (large ones are written from where they are) and go out in a blocking {@code write}
 * on the writer's thread when flushed or when the buffer passes the outbound high mark. Heartbeats go
 * out here too, from the keeper's short-lived thread, unless a write is under way.
 *
 * <p>The buffer is made at the first write: an accepted connection whose requester never got as far
 * as an answer (a slowloris's) holds none.
 *
 * <p>A flush on a virtual thread, while no virtual thread has yet made the JDK switch the socket to
 * non-blocking mode for good, is written by a {@link PlatformWriters platform writer} (the virtual thread
 * waits for it), so that the platform thread that runs the session afterwards reads with one blocking
 * {@code read} per frame: the accepting side's handshake runs on a virtual thread and writes its answer.
 * At most {@link #MAX_HAND_OFFS} per connection: a session that itself runs on a virtual thread and
 * never reads without a timeout then writes on its own thread, as the JDK wants.
 */
final class BlockingOutput {
    /** The output buffer's first size: it grows for a frame that does not fit, up to {@link #COPY_LIMIT}. */
    static final int INITIAL_BUFFER = 8 * 1024;
    /** Frames up to this size are copied into the output buffer; larger ones are written from where they are. */
    private static final int COPY_LIMIT = 64 * 1024;
    /** Flushes on virtual threads handed to a platform writer, at most, per connection (a handshake makes one or two). */
    static final int MAX_HAND_OFFS = 4;

    private final BlockingConnection connection;
    private final SocketChannel channel;
    private final BlockingKeeper keeper;
    private final NettySettings settings;
    /** Serialises writes with the closing flush and heartbeats (the writer and a closer may be different threads). */
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Frames written and not yet flushed, each behind its length; null until the first write. */
    private ByteBuffer out;
    /** Flushes handed to a platform writer so far (under the write lock). */
    private int handedOff;
    /** Why the budget for unsent bytes gave this writer up ({@link UnsentBytes}), or null. */
    private volatile String givenUp;

    BlockingOutput(BlockingConnection connection, SocketChannel channel, BlockingKeeper keeper, NettySettings settings) {
        this.connection = connection;
        this.channel = channel;
        this.keeper = keeper;
        this.settings = settings;
    }

    /** Fails a write on a connection that cannot take one, or of a frame longer than the maximum. */
    private void checkSendable(int length) throws IOException {
        connection.checkWritable();
        if (length > settings.maxFrameBytes()) {
            throw new IOException("cannot send a frame of " + length + " bytes: the maximum frame size is "
                    + settings.maxFrameBytes() + " bytes (sessionj.tcp.maxFrameBytes)");
        }
    }

    /** Buffers {@code frame} (released here) behind its length; writes out what passes the high mark. */
    void write(ByteBuf frame) throws IOException {
        try {
            writeFramed(frame, null, frame.readableBytes());
        } finally {
            frame.release();
        }
    }

    /**
     * As {@link #write(ByteBuf)}, for the session layer's frames ({@link BlockingConnection#writeFrame}): a
     * heap frame of this connection's, usually, or any other kind (a delegated session's unread input).
     */
    void write(Frame frame) throws IOException {
        try {
            writeFramed(null, frame, frame.readableBytes());
        } finally {
            frame.release();
        }
    }

    /**
     * Both writes' one body, for a frame that is either {@code buffer} or {@code frame} (the other null): a frame up to
     * {@link #COPY_LIMIT} is copied behind its length into the output buffer, which is written out past the high mark;
     * a larger one is written from where it is, behind what is buffered. Not released here.
     */
    private void writeFramed(ByteBuf buffer, Frame frame, int length) throws IOException {
        checkSendable(length);
        lockForWriting();
        try {
            writeLocked(buffer, frame, length);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * {@link #write(Frame)} and {@link #flush()} under one hold of the write lock: a session's batch on
     * the path of every message (one lock and unlock fewer, two atomic instructions, per message and side;
     * docs/benchmarks.md, "Twenty-second session").
     */
    void writeAndFlush(Frame frame) throws IOException {
        try {
            int length = frame.readableBytes();
            checkSendable(length);
            lockForWriting();
            try {
                writeLocked(null, frame, length);
                writeOut(null);
            } finally {
                writeLock.unlock();
            }
        } finally {
            frame.release();
        }
    }

    /** {@link #writeFramed}'s body, the write lock held. */
    private void writeLocked(ByteBuf buffer, Frame frame, int length) throws IOException {
        if (length > COPY_LIMIT) {
            ensureOutRoom(FrameDecoder.HEADER_BYTES);
            out.putInt(length);
            writeOut(buffer != null ? buffer.nioBuffers(buffer.readerIndex(), length)
                    : new ByteBuffer[] {bytesOf(frame, length)});
            return;
        }
        ensureOutRoom(FrameDecoder.HEADER_BYTES + length);
        out.putInt(length);
        if (buffer != null) {
            int end = out.position() + length;
            out.limit(end);
            buffer.getBytes(buffer.readerIndex(), out); // up to the limit: the frame's bytes
            out.limit(out.capacity());
        } else if (frame.hasArray()) {
            out.put(frame.array(), frame.arrayOffset() + frame.readerIndex(), length);
        } else {
            byte[] bytes = new byte[length]; // a frame of another kind (a delegated session's unread input): rare
            frame.readBytes(bytes, 0, length);
            out.put(bytes);
        }
        if (out.position() > settings.outboundHighBytes()) {
            writeOut(null);
        }
    }

    /** The readable bytes of a large {@code frame}, written from where they are if it has an array. */
    private static ByteBuffer bytesOf(Frame frame, int length) {
        if (frame.hasArray()) {
            return ByteBuffer.wrap(frame.array(), frame.arrayOffset() + frame.readerIndex(), length);
        }
        byte[] copy = new byte[length];
        frame.readBytes(copy, 0, length);
        return ByteBuffer.wrap(copy);
    }

    /** Writes out everything buffered, blocking until the kernel took it. */
    void flush() throws IOException {
        lockForWriting();
        try {
            writeOut(null);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Takes the write lock, waiting at most the send timeout: the keeper may hold it, blocked in a
     * heartbeat the peer does not read.
     */
    private void lockForWriting() throws IOException {
        long timeout = keeper.sendTimeoutNanos();
        if (timeout < 0) {
            writeLock.lock();
            return;
        }
        try {
            if (!writeLock.tryLock(timeout, TimeUnit.NANOSECONDS)) {
                throw new org.sessionj.runtime.spi.WriteTimeoutException("the peer took nothing for "
                        + java.time.Duration.ofNanos(timeout) + " (" + connection + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to write (" + connection + ")");
        }
    }

    /** Writes a heartbeat unless a write is under way ({@link BlockingKeeper.Kept#writeHeartbeat}). */
    boolean writeHeartbeat() {
        if (connection.isClosed() || !writeLock.tryLock()) {
            return false;
        }
        keeper.writing(); // a heartbeat the peer does not take is a write under way like any
        try {
            if (Thread.currentThread().isVirtual()) {
                connection.socketSwitched(); // no platform writer was free
            }
            ByteBuffer heartbeat = ByteBuffer.allocate(FrameDecoder.HEADER_BYTES).putInt(FrameDecoder.HEARTBEAT).flip();
            while (heartbeat.hasRemaining()) {
                channel.write(heartbeat);
            }
            return true;
        } catch (IOException e) {
            return false; // the peer has gone: the reading side finds out
        } finally {
            keeper.wrote();
            writeLock.unlock();
        }
    }

    /**
     * The closer's last flush of what was written and not flushed, unless a writer holds the lock (it
     * fails on the closed socket instead); {@code watchdog} is started first and bounds it (a peer that
     * never reads must not hold the closer).
     */
    void flushOnClose(Thread watchdog) {
        if (!writeLock.tryLock()) {
            return;
        }
        try {
            if (out != null && out.position() > 0 && channel.isOpen()) {
                watchdog.start();
                writeOut(null);
            }
        } catch (IOException e) {
            // The peer has gone: nothing more can be sent.
        } finally {
            writeLock.unlock();
        }
    }

    /** Whether frames wait in the output buffer, written and not flushed (a hint: read without the lock). */
    boolean hasBuffered() {
        ByteBuffer buffer = out;
        return buffer != null && buffer.position() > 0;
    }

    /** Bytes of output buffer held (for tests: none before the first write). */
    int bufferBytes() {
        ByteBuffer buffer = out;
        return buffer == null ? 0 : buffer.capacity();
    }

    /**
     * An output buffer of {@code capacity} bytes, outside the heap: the JDK writes a heap buffer by copying
     * it into a temporary direct buffer of the writing thread's (two thread-local look-ups and a copy per
     * write, which {@code Socket}'s streams pay too), and a direct one as it is (docs/benchmarks.md,
     * "Twenty-second session"). Freed with the buffer by the collector, as the JDK's own are.
     */
    private static ByteBuffer newBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity);
    }

    private void ensureOutRoom(int bytes) throws IOException {
        if (out == null) {
            out = newBuffer(Math.max(INITIAL_BUFFER, bytes));
            return;
        }
        if (out.remaining() >= bytes) {
            return;
        }
        if (out.position() > 0) {
            writeOut(null);
        }
        if (out.capacity() < bytes) {
            out = newBuffer(Math.max(bytes, 2 * out.capacity()));
        }
    }

    /**
     * Writes the buffered bytes, then {@code more} (may be null), blocking until the kernel took them all;
     * on a virtual thread through a platform writer while that keeps the socket in blocking mode.
     */
    private void writeOut(ByteBuffer[] more) throws IOException {
        if (more == null && (out == null || out.position() == 0)) {
            return; // nothing to write: no system call
        }
        if (Thread.currentThread().isVirtual() && !connection.socketSwitchedForGood()) {
            if (handedOff < MAX_HAND_OFFS) {
                handedOff++;
                FutureTask<Void> write = new FutureTask<>(() -> {
                    writeOutHere(more);
                    return null;
                });
                if (PlatformWriters.tryExecute(write)) {
                    awaitWrite(write);
                    return;
                }
            }
            connection.socketSwitched(); // the JDK switches it as this thread writes
        }
        writeOutHere(more);
    }

    /**
     * Waits for a write handed to a platform writer and rethrows its failure. Not interruptible: the
     * write lock held for it must not be let go while the writer still writes (an interrupt is kept).
     */
    private static void awaitWrite(FutureTask<Void> write) throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    write.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof IOException io) {
                        throw io;
                    }
                    if (cause instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    throw new IOException(cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@link #writeOut} on this thread. */
    private void writeOutHere(ByteBuffer[] more) throws IOException {
        if (out == null) {
            out = newBuffer(INITIAL_BUFFER);
        }
        out.flip();
        keeper.writing();
        long bytes = out.remaining();
        if (more != null) {
            for (ByteBuffer b : more) {
                bytes += b.remaining();
            }
        }
        // A write past the outbound bound (a large frame) may wait for a peer that takes nothing, holding its
        // bytes: they count toward the process's budget meanwhile, and the longest such wait is given up for room.
        UnsentBytes.Wait held = bytes <= settings.outboundHighBytes() ? null
                : settings.unsent().await(bytes, connection.toString(), reason -> {
                    givenUp = reason;
                    connection.closeQuietly(); // ends the blocked write; it reports the reason
                });
        try {
            if (more == null) {
                channel.write(out);
                while (out.hasRemaining()) {
                    keeper.writing(); // some went out: the wait for the peer starts again
                    channel.write(out);
                }
            } else {
                ByteBuffer[] all = new ByteBuffer[more.length + 1];
                all[0] = out;
                System.arraycopy(more, 0, all, 1, more.length);
                long remaining = 0;
                for (ByteBuffer b : all) {
                    remaining += b.remaining();
                }
                while (remaining > 0) {
                    long n = channel.write(all);
                    remaining -= n;
                    if (n > 0 && remaining > 0) {
                        keeper.writing();
                    }
                }
            }
        } catch (IOException e) {
            String reason = givenUp;
            throw reason != null ? new IOException(reason + "; the connection is closed", e) : connection.failure("writing", e);
        } finally {
            if (held != null) {
                held.end();
            }
            keeper.wrote();
            out.clear();
        }
    }
}
