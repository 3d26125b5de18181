package org.sessionj.transport.shm;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.ArrayDeque;
import org.sessionj.runtime.spi.LocalConnection;

/**
 * One end of an in-JVM connection: reads from one {@link Pipe}, writes to the other. Frames and
 * passed references travel by reference through the same queue, so they stay in one order.
 */
final class ShmConnection implements LocalConnection {
    private final Pipe in;
    private final Pipe out;
    private final ByteBufAllocator alloc;
    /** References taken off the queue ahead of the frame that announces them; reader thread only. */
    private ArrayDeque<Object> references;
    private volatile boolean closed;

    ShmConnection(Pipe in, Pipe out, ByteBufAllocator alloc) {
        this.in = in;
        this.out = out;
        this.alloc = alloc;
    }

    /** A connected pair: element 0 is the requester's end, element 1 the accepter's. */
    static ShmConnection[] pair(ByteBufAllocator alloc) {
        Pipe toAccepter = new Pipe();
        Pipe toRequester = new Pipe();
        return new ShmConnection[] {
            new ShmConnection(toRequester, toAccepter, alloc), new ShmConnection(toAccepter, toRequester, alloc)
        };
    }

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public ByteBuf frameBuffer(int capacityHint) {
        return out.frame(capacityHint);
    }

    @Override
    public void write(ByteBuf frame) throws IOException {
        try {
            out.send(frame);
        } catch (IOException e) {
            frame.release();
            throw e;
        }
    }

    @Override
    public void flush() {
        // Every write is visible to the peer at once.
    }

    @Override
    public void writeReference(Object reference) throws IOException {
        // A reference that is itself a frame type is wrapped so the reader cannot mistake it for a frame.
        // The frame that announces the reference wakes the reader: waking it for the reference alone
        // would cost a second wake-up per pass (measured: pass slower than send on Jacobi 100).
        out.sendQuietly(reference instanceof ByteBuf || reference == null ? new PassedReference(reference) : reference);
    }

    @Override
    public Object readReference() throws IOException {
        Object reference = references == null ? null : references.poll();
        if (reference == null) {
            throw new IOException("the peer announced a passed reference that never arrived");
        }
        return reference instanceof PassedReference wrapped ? wrapped.value() : reference;
    }

    @Override
    public ByteBuf read(long timeoutNanos) throws IOException {
        if (!in.enterConsumer()) {
            throw new IOException("in-JVM connection closed");
        }
        try {
            long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
            while (true) {
                long remaining = timeoutNanos < 0 ? -1 : Math.max(0, deadline - System.nanoTime());
                Object element = in.await(remaining);
                if (element == null) {
                    return null;
                }
                if (element instanceof ByteBuf frame) {
                    return frame;
                }
                keepReference(element);
            }
        } finally {
            in.exitConsumer();
        }
    }

    @Override
    public boolean isReadable() {
        if (!in.enterConsumer()) {
            // Closed: the next read reports it at once. Otherwise a read is under way elsewhere.
            return in.isClosed();
        }
        try {
            Object element;
            while ((element = in.peek()) != null && !(element instanceof ByteBuf)) {
                keepReference(in.poll());
            }
            return element != null || in.isEndReached();
        } finally {
            in.exitConsumer();
        }
    }

    private void keepReference(Object reference) {
        if (references == null) {
            references = new ArrayDeque<>(4);
        }
        references.add(reference);
    }

    @Override
    public void readinessListener(Runnable listener) {
        in.wakeListener(listener);
    }

    @Override
    public String transportName() {
        return ShmTransport.NAME;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        out.end();
        in.close();
    }

    /** A passed reference that would otherwise look like a frame (or is null). */
    private record PassedReference(Object value) {
    }
}
