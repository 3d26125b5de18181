package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.sessionj.runtime.spi.Connection;

/**
 * One end of a TCP connection read and written by the session's own thread with blocking socket
 * calls (no event loop): the kernel wakes the reading thread itself when a frame arrives, and a
 * flush is a {@code write} system call on the writing thread. A round trip then costs two thread
 * wake-ups, as with {@code java.net.Socket}, instead of four through an event loop
 * (docs/benchmarks.md, "TCP: blocking reads"). On a virtual thread the JDK parks the thread and
 * its poller wakes it.
 *
 * <p>The wire format is the event-loop connection's (a 4-byte length, then the frame), so either
 * end may use either kind. A selector needs to hear of readiness without reading: the first
 * {@link #readinessListener} starts a reader thread (virtual) that reads frames into an
 * {@link InboundQueue}, and from then on reads take frames from there, as on the event-loop path.
 *
 * <p>Liveness and the send timeout as on the event-loop path: a {@link BlockingKeeper} writes
 * heartbeats (a header of length {@link FrameDecoder#HEARTBEAT}) when nothing was written for the
 * interval, and closes the socket under a write that waited past the send timeout, or that waited for
 * the heartbeat timeout while the peer sent nothing at all (a frozen peer: the write fails even with
 * no send timeout); a read that heard nothing, not even a heartbeat, for the heartbeat timeout fails.
 * Heartbeats from the peer are dropped as they are read.
 */
final class BlockingConnection implements Connection, BlockingKeeper.Kept, HeartbeatCount {
    private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
    private static final int INITIAL_BUFFER = 8 * 1024;
    /** An empty input buffer larger than this (grown for a large frame) goes back to {@link #INITIAL_BUFFER}. */
    private static final int SHRINK_ABOVE = 256 * 1024;
    /** Frames up to this size are copied into the output buffer; larger ones are written from where they are. */
    private static final int COPY_LIMIT = 64 * 1024;
    private static final long CLOSE_LINGER_SECONDS = 10;

    private final SocketChannel channel;
    private final InputStream input;
    private final String transportName;
    private final NettySettings settings;
    private final String description;
    /** Serialises writes with the closing flush (the writer and a closer may be different threads). */
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Guards starting the reader thread of {@link #readinessListener}. */
    private final ReentrantLock pumpLock = new ReentrantLock();

    /** Writer: frames written and not yet flushed, each behind its length. */
    private ByteBuffer out = ByteBuffer.allocate(INITIAL_BUFFER);
    /** Reader: bytes received and not yet returned, from {@code inStart} to {@code inEnd}. */
    private byte[] in = new byte[INITIAL_BUFFER];
    private int inStart;
    private int inEnd;
    /** The peer closed (the reader saw the end of the stream): writes fail from then on, as on the event-loop path. */
    private volatile boolean endOfStream;
    /** The soTimeout currently set on the socket, in milliseconds (0: none). */
    private int soTimeoutMillis;
    /** Set once a selector listens: frames then arrive through this queue. */
    private volatile InboundQueue pumped;
    private volatile boolean closed;
    /** Heartbeats received from the peer so far (by whichever thread reads: one at a time). */
    private volatile long heartbeatsReceived;
    private final BlockingKeeper keeper;
    /** How long a read may hear nothing before the peer is taken for gone (0: heartbeats off). */
    private final long silenceNanos;
    /** The frame in the input buffer that has started and not finished, or null (the reading thread's). */
    private UnfinishedFrames.Frame partial;
    /** Time spent waiting in {@link #fill} for the bytes of {@link #partial}: its deadline counts only that. */
    private long partialWaited;
    /** Why an unfinished frame failed the connection (given up for a newer frame by another thread, which closed the socket), or null. */
    private volatile String frameFailure;

    BlockingConnection(SocketChannel channel, String transportName, NettySettings settings) throws IOException {
        this.channel = channel;
        this.transportName = transportName;
        this.settings = settings;
        channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(java.net.StandardSocketOptions.SO_KEEPALIVE, true);
        this.input = channel.socket().getInputStream();
        this.description = transportName + " " + channel.getLocalAddress() + " -> " + channel.getRemoteAddress()
                + " (blocking)";
        this.silenceNanos = settings.heartbeat().enabled() ? settings.heartbeat().timeoutNanos() : 0;
        this.keeper = new BlockingKeeper(this, settings.heartbeat());
        keeper.startIfNeeded();
    }

    @Override
    public void sendTimeout(long timeoutNanos) {
        keeper.sendTimeout(timeoutNanos);
    }

    @Override
    public ByteBufAllocator alloc() {
        return ALLOC;
    }

    // ---- writing ----

    @Override
    public void write(ByteBuf frame) throws IOException {
        int length = frame.readableBytes();
        try {
            if (closed) {
                throw new IOException("connection already closed (" + description + ")");
            }
            if (endOfStream) {
                throw new IOException("connection closed by the peer (" + description + ")");
            }
            if (length > settings.maxFrameBytes()) {
                throw new IOException("cannot send a frame of " + length + " bytes: the maximum frame size is "
                        + settings.maxFrameBytes() + " bytes (sessionj.tcp.maxFrameBytes)");
            }
            lockForWriting();
            try {
                if (length > COPY_LIMIT) {
                    ensureOutRoom(FrameDecoder.HEADER_BYTES);
                    out.putInt(length);
                    writeOut(frame.nioBuffers(frame.readerIndex(), length));
                    return;
                }
                ensureOutRoom(FrameDecoder.HEADER_BYTES + length);
                out.putInt(length);
                frame.getBytes(frame.readerIndex(), out.array(), out.arrayOffset() + out.position(), length);
                out.position(out.position() + length);
                if (out.position() > settings.outboundHighBytes()) {
                    writeOut(null);
                }
            } finally {
                writeLock.unlock();
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void flush() throws IOException {
        if (closed) {
            throw new IOException("connection already closed (" + description + ")");
        }
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
                        + java.time.Duration.ofNanos(timeout) + " (" + description + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to write (" + description + ")");
        }
    }

    @Override
    public boolean writeHeartbeat() {
        if (closed || !writeLock.tryLock()) {
            return false;
        }
        keeper.writing(); // a heartbeat the peer does not take is a write under way like any
        try {
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

    @Override
    public void abort() {
        closeQuietly();
    }

    /** Bytes read from the socket plus bytes waiting in it (heartbeats included: telling them apart means reading). */
    @Override
    public long receivedBytes() {
        long read = keeper.receivedCount();
        int waiting = unread();
        return waiting < 0 ? -1 : read + waiting;
    }

    @Override
    public int unread() {
        try {
            return input.available();
        } catch (IOException e) {
            return -1;
        }
    }

    private void ensureOutRoom(int bytes) throws IOException {
        if (out.remaining() >= bytes) {
            return;
        }
        if (out.position() > 0) {
            writeOut(null);
        }
        if (out.capacity() < bytes) {
            out = ByteBuffer.allocate(Math.max(bytes, 2 * out.capacity()));
        }
    }

    /** Writes the buffered bytes, then {@code more} (may be null), blocking until the kernel took them all. */
    private void writeOut(ByteBuffer[] more) throws IOException {
        out.flip();
        keeper.writing();
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
            throw failure("writing", e);
        } finally {
            keeper.wrote();
            out.clear();
        }
    }

    // ---- reading ----

    @Override
    public ByteBuf read(long timeoutNanos) throws IOException {
        InboundQueue queue = pumped;
        if (queue != null) {
            return queue.take(timeoutNanos);
        }
        if (closed) {
            String reason = frameFailure;
            throw new IOException(reason != null ? reason : "connection already closed (" + description + ")");
        }
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        while (true) {
            ByteBuf frame;
            try {
                frame = bufferedFrame();
            } catch (BadFrameException e) {
                close(); // nothing after a bad header can be trusted
                throw e;
            }
            if (frame != null) {
                return frame;
            }
            if (endOfStream) {
                throw new IOException("connection closed by the peer (" + description + ")");
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
        close();
        throw new IOException(reason);
    }

    /** The input buffer holds a frame that has not all arrived: it is tracked by the {@link UnfinishedFrames} rules. */
    private void trackPartial(int length) throws IOException {
        if (partial == null) {
            partial = settings.unfinished().start(length, description, System.nanoTime(), reason -> {
                frameFailure = reason;
                closeQuietly(); // ends a read waiting for the frame's bytes; the reader reports the reason
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
            close();
            throw new IOException(reason);
        }
    }

    private void dropPartial() {
        if (partial != null) {
            partial.done();
            partial = null;
        }
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
                throw silence();
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

    @Override
    public long heartbeatsReceived() {
        return heartbeatsReceived;
    }

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

    /** The next whole frame in the input buffer (copied out), or null if none is complete yet. */
    private ByteBuf bufferedFrame() throws IOException {
        skipHeartbeats();
        int available = inEnd - inStart;
        if (available < FrameDecoder.HEADER_BYTES) {
            return null;
        }
        int length = headerAt(inStart);
        if (length < 0 || length > settings.maxFrameBytes()) {
            // The event-loop path's words (FrameDecoder), so that a user sees one message for one fault.
            throw new BadFrameException("bad frame header from the peer: length " + length + (length < 0
                    ? " is negative (expected a 4-byte length in 0.." + settings.maxFrameBytes() + "; is the peer an SJ peer?)"
                    : " exceeds the maximum frame size of " + settings.maxFrameBytes()
                            + " bytes (sessionj.tcp.maxFrameBytes; is the peer an SJ peer?)")
                    + " (" + description + ")");
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
        ByteBuf frame = ALLOC.heapBuffer(length, length);
        frame.writeBytes(in, inStart + FrameDecoder.HEADER_BYTES, length);
        inStart += FrameDecoder.HEADER_BYTES + length;
        dropPartial();
        if (inStart == inEnd) {
            inStart = 0;
            inEnd = 0;
            if (in.length > SHRINK_ABOVE) {
                in = new byte[INITIAL_BUFFER]; // a large frame's buffer is not kept for the connection's life
            }
        }
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
            throw failure("reading", e);
        }
    }

    /** A full input buffer: moves what it holds to the front, or doubles it (it grows as bytes come, up to a frame). */
    private void makeRoom() throws IOException {
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
                            + size + " bytes (" + e.getMessage() + "; " + description + ")");
                }
            }
        }
    }

    @Override
    public boolean isReadable() {
        InboundQueue queue = pumped;
        if (queue != null) {
            return queue.isReadable();
        }
        skipHeartbeats();
        if (closed || endOfStream || inEnd - inStart >= FrameDecoder.HEADER_BYTES && wholeFrameBuffered()) {
            return true;
        }
        // Take what the kernel has without waiting, then look again.
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

    private boolean wholeFrameBuffered() {
        int length = headerAt(inStart);
        return length < 0 || length > settings.maxFrameBytes() || inEnd - inStart >= FrameDecoder.HEADER_BYTES + length;
    }

    @Override
    public void readinessListener(Runnable listener) {
        pumpLock.lock();
        try {
            setListener(listener);
        } finally {
            pumpLock.unlock();
        }
    }

    private void setListener(Runnable listener) {
        InboundQueue queue = pumped;
        if (queue == null) {
            if (listener == null) {
                return;
            }
            queue = new InboundQueue(settings.spins(), () -> description);
            queue.wakeListener(listener);
            pumped = queue;
            InboundQueue target = queue;
            Thread.ofVirtual().name("sj-tcp-reader").start(() -> pump(target));
            return;
        }
        queue.wakeListener(listener);
    }

    /** The reader thread of a connection a selector listens to: frames into {@code queue} until the end. */
    private void pump(InboundQueue queue) {
        try {
            while (true) {
                ByteBuf frame = bufferedFrame();
                if (frame != null) {
                    queue.add(frame);
                } else if (endOfStream) {
                    break;
                } else {
                    long frameLeft = partialLeft();
                    fillHearing(frameLeft == Long.MAX_VALUE ? -1 : frameLeft);
                }
            }
        } catch (IOException e) {
            if (!closed) {
                queue.fail(e);
            }
        }
        queue.end();
        if (!endOfStream) {
            closeQuietly(); // broken: nothing more can be read
        }
    }

    // ---- the rest ----

    private IOException silence() {
        return new IOException("no data and no heartbeat from the peer for " + java.time.Duration.ofNanos(silenceNanos)
                + ": its process is frozen or gone, or the network path is broken (sessionj.heartbeat.timeout)"
                + " (" + description + ")");
    }

    private IOException failure(String doing, IOException e) {
        String dropped = frameFailure;
        if (dropped != null) {
            return new IOException(dropped + "; the connection is closed", e);
        }
        if (keeper.frozen()) {
            return new IOException("the peer took nothing and sent nothing, not even a heartbeat, for "
                    + java.time.Duration.ofNanos(keeper.silenceNanos()) + " while this side was writing: its process"
                    + " is frozen or gone, or the network path is broken (sessionj.heartbeat.timeout); the connection"
                    + " is closed (" + description + ")", e);
        }
        if (keeper.silent() && doing.equals("reading")) {
            return silence();
        }
        if (keeper.timedOut() && doing.equals("writing")) {
            return new org.sessionj.runtime.spi.WriteTimeoutException("the peer took nothing for "
                    + java.time.Duration.ofNanos(keeper.sendTimeoutNanos()) + " while this side was " + doing
                    + "; the connection is closed (" + description + ")");
        }
        if (closed || e instanceof AsynchronousCloseException || e instanceof ClosedChannelException) {
            if (e instanceof ClosedByInterruptException) {
                return new InterruptedIOException("interrupted while " + doing + " (" + description + ")");
            }
            return new IOException("connection already closed (" + description + ")", e);
        }
        return new IOException("connection closed by the peer or broken while " + doing + " (" + description + "): "
                + e.getMessage(), e);
    }

    @Override
    public String transportName() {
        return transportName;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /**
     * Sends what was written and not flushed (bounded by a linger: a peer that never reads must not
     * hold the closer), then closes the socket; a blocked reader wakes up at once.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        keeper.stop();
        UnfinishedFrames.Frame frame = partial;
        if (frame != null) {
            frame.done(); // idempotent: the reading thread may drop it too
        }
        InboundQueue queue = pumped;
        if (queue != null) {
            queue.close();
        }
        Thread watchdog = Thread.ofVirtual().unstarted(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(CLOSE_LINGER_SECONDS));
                closeQuietly();
            } catch (InterruptedException e) {
                // the close completed
            }
        });
        if (writeLock.tryLock()) {
            try {
                if (out.position() > 0 && channel.isOpen()) {
                    watchdog.start();
                    writeOut(null);
                }
            } catch (IOException e) {
                // The peer has gone: nothing more can be sent.
            } finally {
                writeLock.unlock();
            }
        }
        watchdog.interrupt();
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            channel.close();
        } catch (IOException e) {
            // closed anyway
        }
    }

    @Override
    public String toString() {
        return description;
    }

    /** A frame header no SJ peer sends: the stream cannot be read further. */
    private static final class BadFrameException extends IOException {
        private static final long serialVersionUID = 1L;

        BadFrameException(String message) {
            super(message);
        }
    }
}
