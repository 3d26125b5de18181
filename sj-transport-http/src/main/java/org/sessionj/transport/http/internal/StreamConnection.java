package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.transport.netty.internal.InboundQueue;

/**
 * What both ends of a tunnelled connection share: frames written go into an outbound
 * {@link ByteStream} behind 4-byte lengths, and a writer more than a stream's worth ahead waits in
 * {@link #flush}; frames received wait in an {@link InboundQueue}, and a reader that has caught up
 * lets the subclass download again ({@link #readerCaughtUp}).
 */
abstract class StreamConnection implements Connection {
    private final String transportName;
    final HttpSettings settings;
    final InboundQueue inbound;
    final AtomicLong inboundBytes = new AtomicLong();
    /**
     * The budget the frames received and not yet read are charged to (a direct server's end: the process's
     * {@link StreamMemory}), or null (a client's end: bounded per connection only).
     */
    private final Budget frameBudget;
    /** Why the frames waiting were dropped to make room ({@link #dropFrames}), or null. */
    private volatile String droppedFor;
    volatile boolean closed;
    /** Guarded by itself: since when the reader has been behind (frames wait, downloading paused), and the time before. */
    private final long[] behind = new long[2];
    private boolean behindNow;
    /** {@link #deliver}, made once (a method reference per received chunk was an allocation per message). */
    final java.util.function.Consumer<ByteBuf> deliverer = this::deliver;
    private long unflushed;
    /** How long a writer waits for the peer to take bytes; negative: as long as the connection lives. */
    private volatile long sendTimeoutNanos = -1;

    StreamConnection(String transportName, HttpSettings settings) {
        this(transportName, settings, null);
    }

    /** A connection whose frames received and not yet read are charged to {@code frameBudget} (or null: to none). */
    StreamConnection(String transportName, HttpSettings settings, Budget frameBudget) {
        this.transportName = transportName;
        this.settings = settings;
        this.frameBudget = frameBudget;
        this.inbound = frameBudget == null ? new InboundQueue(0, this::toString)
                : new InboundQueue(0, this::toString, frame -> frameBudget.give(frame.readableBytes()));
    }

    /** The stream frames are written to. */
    abstract ByteStream outbound();

    /** The reader consumed frames and fewer than a quarter stream's worth wait now. */
    abstract void readerCaughtUp();

    /**
     * The reader is about to wait for a frame, or asked whether one is there and found none, or waits
     * for readiness: a link that polls only on demand polls now. Called on the reader's thread; must be
     * cheap when there is nothing to do.
     */
    void readerWaiting() {
    }

    /** The writer flushed (after the reader of the outbound stream was signalled). */
    void flushed() {
    }

    /** The writer waits for room in the outbound stream. */
    void writerWaiting() {
    }

    /**
     * A frame received (taken over). With a frame budget it is charged there until read or released unread;
     * going past the budget makes no room here (the bytes were just charged to the upload stream as well,
     * until the next read acknowledges them): the next upload that does not fit, or a write past it, does.
     */
    final void deliver(ByteBuf frame) {
        int length = frame.readableBytes();
        inboundBytes.addAndGet(length);
        Budget budget = frameBudget;
        if (budget == null) {
            inbound.add(frame);
            return;
        }
        budget.force(length);
        if (!inbound.add(frame)) {
            budget.give(length); // released at once: the reader's side is closed
        }
    }

    /** The bytes of the frames received and not yet read. */
    final long framesWaiting() {
        return inboundBytes.get();
    }

    /**
     * Drops the frames waiting, for memory ({@link StreamMemory}): the reader's next read fails with
     * {@code reason}, and the frames' bytes go back to the budget now rather than when the program reads them
     * (a program that does not read is what let them pile up).
     */
    final void dropFrames(String reason) {
        droppedFor = reason;
        inbound.close();
    }

    /** Notes whether the reader is behind now (the peer's bytes are not taken meanwhile). */
    final void readerBehind(boolean now) {
        synchronized (behind) {
            if (now == behindNow) {
                return;
            }
            behindNow = now;
            if (now) {
                behind[0] = System.nanoTime();
            } else {
                behind[1] += System.nanoTime() - behind[0];
            }
        }
    }

    /** How long the reader has been behind so far: an unfinished frame from the peer could not progress meanwhile. */
    final long behindNanos() {
        synchronized (behind) {
            return behind[1] + (behindNow ? System.nanoTime() - behind[0] : 0);
        }
    }

    /** An assembler of the peer's frames, under the settings' rules; an unfinished frame's failure fails this connection. */
    final FrameAssembler newAssembler() {
        return new FrameAssembler(PooledByteBufAllocator.DEFAULT, settings.maxFrameBytes(), settings.unfinished(),
                this::toString, this::behindNanos, this::unfinishedFrameFailed);
    }

    /** An unfinished frame from the peer missed its deadline or was given up for a newer one (any thread). */
    abstract void unfinishedFrameFailed(String reason);

    /** The stream broke: the reader gets the frames before, then {@code reason}. */
    final void failInbound(String reason) {
        inbound.fail(new IOException(reason));
        inbound.end();
    }

    @Override
    public final ByteBufAllocator alloc() {
        return PooledByteBufAllocator.DEFAULT;
    }

    @Override
    public final void write(ByteBuf frame) throws IOException {
        int length = frame.readableBytes();
        if (closed) {
            frame.release();
            throw new IOException("connection already closed (" + this + ")");
        }
        if (length > settings.maxFrameBytes()) {
            frame.release();
            throw new IOException("cannot send a frame of " + length + " bytes: the maximum frame size is "
                    + settings.maxFrameBytes() + " bytes (sessionj.tcp.maxFrameBytes)");
        }
        if (!outbound().appendFrame(frame)) {
            throw new IOException("connection closed by the peer or broken (" + this + "): " + outbound().refusal());
        }
        unflushed += length;
        if (unflushed > settings.streamBytes()) {
            flush();
        }
    }

    @Override
    public final void sendTimeout(long timeoutNanos) {
        this.sendTimeoutNanos = timeoutNanos;
    }

    @Override
    public final void flush() throws IOException {
        if (closed) {
            throw new IOException("connection already closed (" + this + ")");
        }
        unflushed = 0;
        ByteStream out = outbound();
        out.signal();
        flushed();
        Thread writer = Thread.currentThread();
        long timeout = sendTimeoutNanos;
        long deadline = System.nanoTime() + timeout;
        while (out.buffered() > settings.streamBytes()) {
            if (timeout >= 0 && deadline - System.nanoTime() <= 0) {
                throw new org.sessionj.runtime.spi.WriteTimeoutException("the peer took nothing for "
                        + java.time.Duration.ofNanos(timeout) + " with " + out.buffered() + " bytes waiting to be sent ("
                        + this + ")");
            }
            if (out.refusal() != null) {
                throw new IOException("connection closed by the peer or broken (" + this + "): " + out.refusal());
            }
            if (closed) {
                throw new IOException("connection closed while waiting to write (" + this + ")");
            }
            writerWaiting();
            if (out.awaitSpace(ready -> LockSupport.unpark(writer), 0)) {
                long wait = TimeUnit.MILLISECONDS.toNanos(100);
                LockSupport.parkNanos(this, timeout < 0 ? wait : Math.max(1, Math.min(wait, deadline - System.nanoTime())));
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting to write to " + this);
            }
        }
    }

    @Override
    public final ByteBuf read(long timeoutNanos) throws IOException {
        readerWaiting();
        ByteBuf frame;
        try {
            frame = inbound.take(timeoutNanos);
        } catch (IOException e) {
            String dropped = droppedFor;
            if (dropped != null) {
                throw new IOException("connection broken (" + this + "): " + dropped, e);
            }
            throw e;
        }
        if (frame == null) {
            return null;
        }
        int length = frame.readableBytes();
        Budget budget = frameBudget;
        if (budget != null) {
            budget.give(length);
        }
        if (inboundBytes.addAndGet(-length) <= settings.streamBytes() / 4) {
            readerCaughtUp();
        }
        return frame;
    }

    @Override
    public final boolean isReadable() {
        if (inbound.isReadable()) {
            return true;
        }
        readerWaiting();
        return false;
    }

    @Override
    public final void readinessListener(Runnable listener) {
        inbound.wakeListener(listener);
        if (listener != null) {
            readerWaiting();
        }
    }

    @Override
    public final String transportName() {
        return transportName;
    }

    @Override
    public final boolean isClosed() {
        return closed;
    }
}
