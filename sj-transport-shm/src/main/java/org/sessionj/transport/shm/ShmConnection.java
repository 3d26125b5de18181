package org.sessionj.transport.shm;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.ArrayDeque;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.FrameConnection;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.runtime.spi.support.HeapFrame;
import org.sessionj.runtime.spi.support.Frames;

/**
 * One end of an in-JVM connection: reads from one {@link Pipe}, writes to the other. Frames and
 * passed references travel by reference through the same queue, so they stay in one order. Each
 * direction is bounded (the writer waits for room up to its send timeout), and each end knows its
 * thread so that the peer can tell when it was left behind unclosed.
 *
 * <p>Frames are SJ's own heap frames ({@link FrameConnection}), recycled per direction: no Netty class
 * is touched on the session path. The {@code ByteBuf} methods work too (a buffer written is copied into
 * a heap frame and released, a heap frame read as a buffer is copied), for tools and the transport
 * conformance suite: so nothing in a pipe ever needs a release, and its reader pays no guard against a
 * close from another thread ({@link Pipe}).
 */
final class ShmConnection implements LocalConnection, FrameConnection {
    private final Pipe in;
    private final Pipe out;
    private final ByteBufAllocator alloc;
    /**
     * References taken off the queue ahead of the frame that announces them, reader thread only: null
     * (none), the one reference, or {@link Later} when several wait. Most sessions take one reference
     * at a time (the session set-up passes one), so a deque per end held for good would cost every idle
     * session two deques and their arrays (~130 bytes, found by scripts/idle-sessions.sh's histogram).
     */
    private Object references;
    /**
     * The thread that last read or wrote on this end, or null (none yet, or handed over): one plain
     * load and compare per read or write, a store only when the thread changes. Read racily by the
     * peer's watch ({@link OrphanCheck}), which only needs to see it eventually.
     */
    private Thread owner;
    /** How long a write waits for room; negative: as long as the connection lives. */
    private long sendTimeoutNanos = -1;
    private volatile boolean closed;
    /** Runs after this end's first write (hands the peer's end to an inline acceptor), or null. */
    private Runnable onFirstWrite;

    ShmConnection(Pipe in, Pipe out, ByteBufAllocator alloc) {
        this.in = in;
        this.out = out;
        this.alloc = alloc;
    }

    /**
     * A connected pair with the bounds of this JVM's settings: element 0 is the requester's end, element
     * 1 the accepter's; {@code alloc} null: Netty's default allocator, looked up when first needed.
     */
    static ShmConnection[] pair(ByteBufAllocator alloc) {
        return pair(alloc, ShmSettings.fromSystemProperties());
    }

    /** A connected pair with {@code settings}: element 0 is the requester's end, element 1 the accepter's. */
    static ShmConnection[] pair(ByteBufAllocator alloc, ShmSettings settings) {
        Pipe toAccepter = new Pipe(settings);
        Pipe toRequester = new Pipe(settings);
        ShmConnection requester = new ShmConnection(toRequester, toAccepter, alloc);
        ShmConnection accepter = new ShmConnection(toAccepter, toRequester, alloc);
        toAccepter.ends(requester, accepter);
        toRequester.ends(accepter, requester);
        return new ShmConnection[] {requester, accepter};
    }

    /** Bytes this end wrote that its peer has not read yet (for tests). */
    long outboundUnreadBytes() {
        return out.unreadBytes();
    }

    /** The thread this end belongs to, or null. */
    Thread owner() {
        return owner;
    }

    /** The current thread uses this end. */
    private void claim() {
        Thread current = Thread.currentThread();
        if (owner != current) {
            owner = current;
        }
    }

    @Override
    public void releaseOwner() {
        owner = null;
    }

    @Override
    public void sendTimeout(long timeoutNanos) {
        this.sendTimeoutNanos = timeoutNanos;
    }

    @Override
    public ByteBufAllocator alloc() {
        // Netty's default allocator only when asked for: the session path writes recycled frames
        // (frameBuffer), so a program using only in-JVM sessions never initialises the pooled allocator.
        ByteBufAllocator a = alloc;
        return a != null ? a : ByteBufAllocator.DEFAULT;
    }

    /** Lets go of the spare frame of the direction this end writes (its reader has been idle a while). */
    void dropSpare() {
        out.dropSpare();
    }

    /** Whether this end's reader is parked waiting for a frame (for tests). */
    boolean readerParkedForTest() {
        return in.readerParked();
    }

    /** Whether a released frame waits for this end's next write (for tests). */
    boolean hasSpare() {
        return out.hasSpare();
    }

    @Override
    public Frame newFrame(int capacityHint) {
        return out.frame(capacityHint);
    }

    @Override
    public ByteBuf frameBuffer(int capacityHint) {
        // Only for users of the ByteBuf methods: plain heap memory, not the pooled allocator's per-thread caches.
        return Unpooled.buffer(capacityHint);
    }

    /** Sets what runs on the writing thread right after this end's first write (before any write). */
    void onFirstWrite(Runnable action) {
        this.onFirstWrite = action;
    }

    @Override
    public void write(ByteBuf frame) throws IOException {
        writeFrame(Frames.copyInto(frame, out.frame(frame.readableBytes())));
    }

    @Override
    public void writeFrame(Frame frame) throws IOException {
        if (!(frame instanceof HeapFrame)) {
            // A frame of another connection (a delegated session's unread input, say): copied, so that
            // everything queued is heap memory the collector may take.
            frame = copy(frame);
        }
        claim();
        try {
            out.send(frame, sendTimeoutNanos);
        } catch (IOException e) {
            frame.release();
            throw e;
        }
        Runnable first = onFirstWrite;
        if (first != null) {
            onFirstWrite = null;
            first.run();
        }
    }

    /** A heap frame of this direction holding {@code frame}'s readable bytes; {@code frame} is released. */
    private HeapFrame copy(Frame frame) {
        try {
            return out.frame(frame.readableBytes()).writeBytes(frame); // HeapFrame's own copy, no scratch array
        } finally {
            frame.release();
        }
    }

    @Override
    public void flush() {
        // Every write is visible to the peer at once.
    }

    @Override
    public void writeReference(Object reference) throws IOException {
        // A reference that is itself a frame is wrapped so the reader cannot mistake it for a frame (a
        // ByteBuf need not be: frames written as buffers travel as views).
        // The frame that announces the reference wakes the reader: waking it for the reference alone
        // would cost a second wake-up per pass (measured: pass slower than send on Jacobi 100).
        claim();
        out.sendQuietly(reference instanceof Frame || reference == null ? new PassedReference(reference) : reference,
                sendTimeoutNanos);
    }

    @Override
    public Object readReference() throws IOException {
        Object held = references;
        Object reference;
        if (held instanceof Later later) {
            reference = later.poll();
            if (later.isEmpty()) {
                references = null;
            }
        } else {
            reference = held;
            references = null;
        }
        if (reference == null) {
            throw new IOException("the peer announced a passed reference that never arrived");
        }
        return reference instanceof PassedReference wrapped ? wrapped.value() : reference;
    }

    @Override
    public ByteBuf read(long timeoutNanos) throws IOException {
        Frame frame = readFrame(timeoutNanos);
        return frame == null ? null : Frames.toByteBuf(frame);
    }

    @Override
    public Frame readFrame(long timeoutNanos) throws IOException {
        claim();
        if (!in.enterConsumer()) {
            throw new IOException("in-JVM connection closed");
        }
        try {
            // Small on purpose, with the rare case apart: the compiler inlines it into the session's
            // receive, and a virtual thread that yields in the wait below freezes one frame fewer.
            Object element = in.await(timeoutNanos);
            if (element instanceof Frame frame) {
                in.consumed(frame.readableBytes());
                return frame;
            }
            return element == null ? null : frameAfterReferences(element, timeoutNanos);
        } finally {
            in.exitConsumer();
        }
    }

    /** {@link #readFrame}, once a passed reference came ahead of its frame (kept for {@link #readReference}). */
    private Frame frameAfterReferences(Object reference, long timeoutNanos) throws IOException {
        // The clock is read only here: input has arrived, and the frame that announces it gets the whole
        // timeout from there. A receive that finds its frame (the usual case) reads no clock.
        long deadline = timeoutNanos >= 0 ? System.nanoTime() + timeoutNanos : 0;
        Object element = reference;
        while (true) {
            keepReference(element);
            element = in.await(timeoutNanos >= 0 ? Math.max(0, deadline - System.nanoTime()) : timeoutNanos);
            if (element == null) {
                return null;
            }
            if (element instanceof Frame frame) {
                in.consumed(frame.readableBytes());
                return frame;
            }
        }
    }

    @Override
    public boolean isReadable() {
        // Closed or ended (read first: the producer queues everything before its end): the next read
        // returns or fails at once. Otherwise a frame must be queued; passed references ahead of it are
        // looked past, not taken (a selector's thread may ask while the session's reader reads).
        return in.isClosed() || in.isEnded() || in.hasQueued(Frame.class);
    }

    private void keepReference(Object reference) {
        in.consumed(Pipe.REFERENCE_BYTES);
        Object held = references;
        if (held == null) {
            references = reference;
        } else if (held instanceof Later later) {
            later.add(reference);
        } else {
            Later later = new Later();
            later.add(held);
            later.add(reference);
            references = later;
        }
    }

    /** Whether references taken off the queue wait for the frames that announce them (for tests). */
    boolean holdsReferences() {
        return references != null;
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

    /**
     * Several references waiting, oldest first. A class of its own, so a passed reference (never an
     * instance of this private class) cannot be mistaken for the deque.
     */
    private static final class Later extends ArrayDeque<Object> {
        private static final long serialVersionUID = 1L;

        Later() {
            super(4);
        }
    }

    /** A passed reference that would otherwise look like a frame (or is null). */
    private record PassedReference(Object value) {
    }
}
