package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.runtime.spi.Connection;

/**
 * The server's end of a direct tunnelled connection: frames written go into the half's download
 * stream (behind 4-byte lengths) for the client's polls or WebSocket; the client's uploads are cut
 * into frames for the reader, no faster than the reader takes them (the upload stream then fills and
 * the client's uploads wait).
 */
final class ServedConnection implements Connection {
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final int PUMP_BYTES = 1 << 20;

    private final String transportName;
    private final Half half;
    private final HttpSettings settings;
    private final String description;
    private final FrameQueue inbound;
    private final FrameAssembler assembler;
    private final AtomicLong inboundBytes = new AtomicLong();
    private final AtomicInteger pumpWork = new AtomicInteger();
    private long position;
    private volatile boolean paused;
    private volatile boolean closed;
    private boolean released;
    private long unflushed;

    ServedConnection(String transportName, Half half, HttpSettings settings, String description) {
        this.transportName = transportName;
        this.half = half;
        this.settings = settings;
        this.description = transportName + " " + description;
        this.inbound = new FrameQueue(0, this::toString);
        this.assembler = new FrameAssembler(PooledByteBufAllocator.DEFAULT, settings.maxFrameBytes());
        pump();
    }

    /** Moves uploaded bytes into frames; one thread at a time, re-run if asked meanwhile. */
    private void pump() {
        if (pumpWork.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            pumpOnce();
            missed = pumpWork.addAndGet(-missed);
        } while (missed != 0);
    }

    private void pumpOnce() {
        while (true) {
            if (closed) {
                if (!released) {
                    released = true;
                    assembler.release();
                }
                return;
            }
            if (inboundBytes.get() > settings.streamBytes()) {
                paused = true;
                if (inboundBytes.get() > settings.streamBytes()) {
                    return;
                }
                paused = false;
            }
            ByteStream.Chunk chunk = half.in().read(position, PUMP_BYTES);
            if (chunk == null) {
                if (half.in().awaitData(ready -> {
                    if (ready) {
                        pump();
                    }
                })) {
                    return;
                }
                continue;
            }
            if (chunk.failure() != null) {
                inbound.fail(chunk.failure());
                return;
            }
            if (chunk.bytes() != null) {
                position += chunk.bytes().readableBytes();
                try {
                    assembler.feed(chunk.bytes(), frame -> {
                        inboundBytes.addAndGet(frame.readableBytes());
                        inbound.add(frame);
                    });
                } catch (IOException e) {
                    inbound.fail(e.getMessage());
                    half.out().fail(e.getMessage());
                    return;
                }
            }
            if (chunk.fin()) {
                half.in().read(position, 0); // acknowledge everything
                if (assembler.partialBytes() > 0) {
                    inbound.fail("the peer closed in the middle of a frame");
                } else {
                    inbound.end();
                }
                return;
            }
        }
    }

    @Override
    public ByteBufAllocator alloc() {
        return PooledByteBufAllocator.DEFAULT;
    }

    @Override
    public void write(ByteBuf frame) throws IOException {
        int length = frame.readableBytes();
        if (closed) {
            frame.release();
            throw new IOException("connection already closed (" + this + ")");
        }
        if (length > settings.maxFrameBytes()) {
            frame.release();
            throw new IOException("cannot send a frame of " + length + " bytes: the maximum frame size is "
                    + settings.maxFrameBytes() + " bytes (sj.tcp.maxFrameBytes)");
        }
        ByteBuf header = alloc().buffer(FrameAssembler.HEADER_BYTES).writeInt(length);
        if (!half.out().appendLocal(header) || !half.out().appendLocal(frame)) {
            frame.release();
            throw new IOException("connection closed by the peer or broken (" + this + "): " + half.out().refusal());
        }
        unflushed += length;
        if (unflushed > settings.streamBytes()) {
            flush();
        }
    }

    @Override
    public void flush() throws IOException {
        if (closed) {
            throw new IOException("connection already closed (" + this + ")");
        }
        unflushed = 0;
        ByteStream out = half.out();
        out.signal();
        Thread writer = Thread.currentThread();
        while (out.buffered() > settings.streamBytes()) {
            if (out.refusal() != null) {
                throw new IOException("connection closed by the peer or broken (" + this + "): " + out.refusal());
            }
            if (closed) {
                throw new IOException("connection closed while waiting to write (" + this + ")");
            }
            if (out.awaitSpace(ready -> LockSupport.unpark(writer), 0)) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting to write to " + this);
            }
        }
    }

    @Override
    public ByteBuf read(long timeoutNanos) throws IOException {
        ByteBuf frame = inbound.take(timeoutNanos);
        if (frame != null) {
            long left = inboundBytes.addAndGet(-frame.readableBytes());
            if (paused && left <= settings.streamBytes() / 4) {
                paused = false;
                pump();
            }
        }
        return frame;
    }

    @Override
    public boolean isReadable() {
        return inbound.isReadable();
    }

    @Override
    public void readinessListener(Runnable listener) {
        inbound.wakeListener(listener);
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
     * Ends the download stream after what was written, and waits (at most ten seconds) until the
     * client has received it, so that the process may exit right after.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        inbound.close();
        half.out().finish();
        half.in().closeReader("the peer closed the connection");
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
        while (half.out().buffered() > 0 && !half.isDone() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        pump(); // releases the assembler's bytes (here, or in a pump running now)
    }

    @Override
    public String toString() {
        return description;
    }
}
