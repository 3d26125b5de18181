package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One direction of a tunnelled connection as a byte stream with offsets: the writer appends at the
 * offset it has reached, the reader reads from the offset it has received (acknowledging everything
 * before it). Bytes are kept until acknowledged, so a poll response lost on the way (a proxy that
 * timed out, a dropped connection) is simply asked for again; a retransmitted upload is recognised by
 * its offset and not appended twice.
 *
 * <p>Bounded: a remote writer's append that would take more than {@code capacity} unacknowledged
 * bytes is refused with {@link Append#FULL} (the caller holds the upload and retries when space
 * frees), except into an empty stream, so that one segment larger than the capacity cannot wedge
 * it. A shared {@link Budget} bounds all streams of a relay together ({@link Append#BUSY}). A
 * segment of up to {@link #SMALL_FRAME} bytes is copied into the tail batch buffer, so that what the
 * capacity allows (bytes) is what is held, whatever the segments' sizes.
 *
 * <p>Ends: the writer {@linkplain #finish finishes} (the reader gets every byte, then the end), or
 * the stream {@linkplain #fail fails} (the reader gets the bytes before, then the failure; writers are
 * refused), or the reader {@linkplain #closeReader leaves} (writers are refused, bytes are dropped).
 *
 * <p>Thread-safe; waiters run on the thread that made them ready, outside the lock, and must hand
 * real work to their own event loop.
 */
public final class ByteStream {
    /** Outcome of a remote append. */
    public enum Append {
        /** Appended (or a retransmission of bytes already here). */
        ACCEPTED,
        /** No room now: keep the bytes and retry when the space waiter runs. */
        FULL,
        /** The relay's memory budget is spent: try again later. */
        BUSY,
        /** The offset is beyond what was received: bytes were lost, the stream cannot go on. */
        GAP,
        /** The stream is finished, failed, or its reader left. */
        CLOSED
    }

    /**
     * What a read found: bytes from {@code offset} (possibly none), whether the stream ends after
     * them, or why it failed.
     */
    public record Chunk(long offset, ByteBuf bytes, boolean fin, String failure) {
        /** Whether the chunk carries bytes. */
        public boolean hasBytes() {
            return bytes != null && bytes.isReadable();
        }
    }

    /** Frames (by {@link #appendFrame}) and segments (by {@link #append}) up to this size are copied into the tail batch buffer. */
    static final int SMALL_FRAME = 1024;
    /** The size of a batch buffer: room for several small frames, and a pooled size (no per-message allocation beyond it). */
    static final int BATCH_BYTES = 8 * 1024;

    private final ReentrantLock lock = new ReentrantLock();
    private final int capacity;
    private final Budget budget;
    private final ArrayDeque<ByteBuf> pending = new ArrayDeque<>();
    /** The batch buffer small frames and segments are copied into, if it is still the last pending buffer. */
    private ByteBuf batch;
    private long acked;
    private long written;
    private boolean finished;
    private String failure;
    private String readerGone;
    /** Called with true when bytes or an end arrive, with false when a newer waiter replaced it. */
    private Consumer<Boolean> dataWaiter;
    private Consumer<Boolean> spaceWaiter;

    /** A stream holding at most {@code capacity} unacknowledged bytes, charged to {@code budget}. */
    public ByteStream(int capacity, Budget budget) {
        this.capacity = capacity;
        this.budget = budget;
    }

    /** Bytes written so far (the offset of the next byte). */
    public long written() {
        lock.lock();
        try {
            return written;
        } finally {
            lock.unlock();
        }
    }

    /** Bytes written and not yet acknowledged. */
    public long buffered() {
        lock.lock();
        try {
            return written - acked;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the writer finished. */
    public boolean isFinished() {
        lock.lock();
        try {
            return finished;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the stream can take no more bytes (finished, failed, or its reader left). */
    public boolean isClosedForWriting() {
        lock.lock();
        try {
            return finished || failure != null || readerGone != null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A remote writer's segment {@code bytes} starting at stream offset {@code offset}, and whether the
     * writer finishes after it. Takes ownership of {@code bytes} unless the answer is FULL or BUSY.
     */
    public Append append(ByteBuf bytes, long offset, boolean finAfter) {
        Append result = appendOnce(bytes, offset, finAfter);
        if (result == Append.BUSY && budget.spent()) {
            result = appendOnce(bytes, offset, finAfter); // room was made (or this stream was failed for it)
        }
        return result;
    }

    private Append appendOnce(ByteBuf bytes, long offset, boolean finAfter) {
        Consumer<Boolean> wake;
        lock.lock();
        try {
            int length = bytes.readableBytes();
            if (offset > written) {
                bytes.release();
                return Append.GAP;
            }
            long skip = written - offset;
            if (skip >= length) {
                bytes.release(); // a retransmission of bytes already here
                if (finAfter && !finished && failure == null && readerGone == null && offset + length == written) {
                    finished = true;
                    wake = takeDataWaiter();
                } else {
                    return finished || failure == null && readerGone == null ? Append.ACCEPTED : Append.CLOSED;
                }
            } else {
                if (finished || failure != null || readerGone != null) {
                    bytes.release();
                    return Append.CLOSED;
                }
                long fresh = length - skip;
                if (written > acked && written - acked + fresh > capacity) {
                    return Append.FULL;
                }
                if (!budget.tryTake(fresh)) {
                    return Append.BUSY;
                }
                bytes.skipBytes((int) skip);
                if (fresh <= SMALL_FRAME) {
                    // Copied into the tail batch buffer: a peer's one-byte messages would otherwise
                    // pin a buffer each (~100 bytes of heap per byte) within a capacity counting bytes.
                    copyToBatch(bytes, (int) fresh);
                    bytes.release();
                } else {
                    pending.add(bytes);
                    batch = null;
                }
                written += fresh;
                finished = finAfter;
                wake = takeDataWaiter();
            }
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            wake.accept(true);
        }
        return Append.ACCEPTED;
    }

    /**
     * A local writer's frame, appended behind its 4-byte length without a capacity check: the writer
     * checks {@link #buffered()} itself and waits. Does not wake the reader ({@link #signal} does).
     *
     * <p>A frame of up to {@link #SMALL_FRAME} bytes is copied behind its length into the batch buffer
     * at the stream's tail (and released), so that a reader's chunk of small frames is one slice of one
     * buffer: before, each frame travelled as a header buffer and the frame's own buffer, and every
     * read of them built a composite buffer (an allocation and a component array per message). The
     * batch buffer never grows (a reader's slice of it stays valid while the writer appends behind it).
     * A larger frame is appended as it is, behind a buffer holding its length.
     *
     * @return false (and the frame released) if the stream takes no more
     */
    public boolean appendFrame(ByteBuf frame) {
        boolean over;
        lock.lock();
        try {
            if (finished || failure != null || readerGone != null) {
                frame.release();
                return false;
            }
            int length = frame.readableBytes();
            int total = FrameAssembler.HEADER_BYTES + length;
            if (length <= SMALL_FRAME) {
                batchWithRoom(total).writeInt(length).writeBytes(frame, frame.readerIndex(), length);
                frame.release();
            } else {
                pending.add(PooledByteBufAllocator.DEFAULT.directBuffer(FrameAssembler.HEADER_BYTES).writeInt(length));
                pending.add(frame);
                batch = null;
            }
            over = budget.force(total);
            written += total;
        } finally {
            lock.unlock();
        }
        if (over) {
            budget.spent(); // outside the lock: making room looks at other streams
        }
        return true;
    }

    /** Wakes the reader if something is waiting for it (after local appends). */
    public void signal() {
        Consumer<Boolean> wake;
        lock.lock();
        try {
            wake = written > acked || finished || failure != null ? takeDataWaiter() : null;
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            wake.accept(true);
        }
    }

    /** The writer is done: the reader gets the end after the bytes written so far. */
    public void finish() {
        Consumer<Boolean> wake;
        lock.lock();
        try {
            if (finished || failure != null) {
                return;
            }
            finished = true;
            wake = takeDataWaiter();
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            wake.accept(true);
        }
    }

    /**
     * The writer broke off ({@code reason}): the reader gets the bytes written so far, then the failure.
     * Ignored once the writer finished normally.
     */
    public void fail(String reason) {
        Consumer<Boolean> data;
        Consumer<Boolean> space;
        lock.lock();
        try {
            if (finished || failure != null) {
                return;
            }
            failure = reason;
            data = takeDataWaiter();
            space = takeSpaceWaiter();
        } finally {
            lock.unlock();
        }
        if (data != null) {
            data.accept(true);
        }
        if (space != null) {
            space.accept(true);
        }
    }

    /** The reader left ({@code reason}): the bytes are dropped, writers are refused from now on. */
    public void closeReader(String reason) {
        Consumer<Boolean> data;
        Consumer<Boolean> space;
        lock.lock();
        try {
            if (readerGone != null) {
                return;
            }
            readerGone = reason;
            releaseAll();
            data = takeDataWaiter();
            space = takeSpaceWaiter();
        } finally {
            lock.unlock();
        }
        if (data != null) {
            data.accept(false);
        }
        if (space != null) {
            space.accept(true);
        }
    }

    /** Why writers are refused: the reader left, the stream failed, or it is finished; null if not refused. */
    public String refusal() {
        lock.lock();
        try {
            return readerGone != null ? readerGone : failure != null ? failure : finished ? "the stream is finished" : null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Acknowledges everything before {@code ack} and returns up to {@code max} bytes from there (as
     * retained slices: the caller releases the chunk's bytes), whether the stream ends after them, or
     * its failure; {@code null} when there is nothing new yet. An {@code ack} below one acknowledged
     * before reads from there (the chunk's offset says so); one beyond the bytes written is a failure.
     */
    public Chunk read(long ack, int max) {
        Consumer<Boolean> space = null;
        try {
            lock.lock();
            try {
                if (readerGone != null) {
                    return new Chunk(ack, null, false, readerGone);
                }
                if (ack > written) {
                    return new Chunk(ack, null, false, "acknowledged offset " + ack + " is beyond the " + written
                            + " bytes written");
                }
                if (ack < acked) {
                    // A request that was overtaken by a newer one of the same reader (its two connections
                    // may deliver out of order): it gets the bytes from where the newer one acknowledged,
                    // and the reader skips what it has (the answer names its offset).
                    ack = acked;
                }
                if (ack > acked) {
                    drop(ack - acked);
                    space = takeSpaceWaiter();
                }
                long available = written - ack;
                if (available > 0 && max > 0) {
                    return new Chunk(ack, slice((int) Math.min(max, available)), finished && available <= max, null);
                }
                if (available == 0 && finished) {
                    return new Chunk(ack, Unpooled.EMPTY_BUFFER, true, null);
                }
                if (available == 0 && failure != null) {
                    return new Chunk(ack, null, false, failure);
                }
                return null;
            } finally {
                lock.unlock();
            }
        } finally {
            if (space != null) {
                space.accept(true);
            }
        }
    }

    /**
     * Registers the reader's waiter, run with true once bytes or an end are there. If they already
     * are, returns false and registers nothing. A waiter registered before is run with false.
     */
    public boolean awaitData(Consumer<Boolean> waiter) {
        Consumer<Boolean> old;
        lock.lock();
        try {
            if (written > acked && readerGone == null || finished || failure != null) {
                return false;
            }
            if (readerGone != null) {
                return false;
            }
            old = dataWaiter;
            dataWaiter = waiter;
        } finally {
            lock.unlock();
        }
        if (old != null && old != waiter) {
            old.accept(false);
        }
        return true;
    }

    /**
     * Runs the reader's waiter, if one is registered, with false: a newer request of the reader takes
     * over, and the request that waited is answered at once (at most one request per reader is held).
     */
    public void releaseDataWaiter() {
        Consumer<Boolean> old;
        lock.lock();
        try {
            old = takeDataWaiter();
        } finally {
            lock.unlock();
        }
        if (old != null) {
            old.accept(false);
        }
    }

    /** Unregisters {@code waiter} if it is still the reader's waiter (its poll timed out). */
    public boolean cancelDataWaiter(Consumer<Boolean> waiter) {
        lock.lock();
        try {
            if (dataWaiter == waiter) {
                dataWaiter = null;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Registers the writer's waiter, run once acknowledgements free space (or the stream closes). If
     * there is space already, returns false and registers nothing. A waiter registered before is run.
     */
    public boolean awaitSpace(Consumer<Boolean> waiter, long needed) {
        Consumer<Boolean> old;
        lock.lock();
        try {
            if (written == acked || written - acked + needed <= capacity || failure != null || readerGone != null) {
                return false;
            }
            old = spaceWaiter;
            spaceWaiter = waiter;
        } finally {
            lock.unlock();
        }
        if (old != null) {
            old.accept(false);
        }
        return true;
    }

    /** Releases every byte held (the stream is being discarded). */
    public void dispose() {
        lock.lock();
        try {
            if (readerGone == null) {
                readerGone = "the connection was discarded";
            }
            releaseAll();
        } finally {
            lock.unlock();
        }
    }

    private Consumer<Boolean> takeDataWaiter() {
        Consumer<Boolean> w = dataWaiter;
        dataWaiter = null;
        return w;
    }

    private Consumer<Boolean> takeSpaceWaiter() {
        Consumer<Boolean> w = spaceWaiter;
        spaceWaiter = null;
        return w;
    }

    /** The batch buffer at the stream's tail with room for {@code bytes} (a new one if needed). */
    private ByteBuf batchWithRoom(int bytes) {
        ByteBuf tail = batch;
        if (tail == null || pending.peekLast() != tail || tail.writableBytes() < bytes) {
            tail = PooledByteBufAllocator.DEFAULT.directBuffer(BATCH_BYTES, BATCH_BYTES);
            pending.add(tail);
            batch = tail;
        }
        return tail;
    }

    /** Copies {@code length} readable bytes of {@code bytes} into the tail batch buffer. */
    private void copyToBatch(ByteBuf bytes, int length) {
        batchWithRoom(length).writeBytes(bytes, bytes.readerIndex(), length);
    }

    /** Buffers held (for tests: small appends share batch buffers). */
    int heldBuffers() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    private void drop(long bytes) {
        long left = bytes;
        while (left > 0) {
            ByteBuf head = pending.peek();
            int n = (int) Math.min(left, head.readableBytes());
            if (n == head.readableBytes()) {
                if (head == batch) {
                    batch = null; // all read: released below (a reader's slices keep their own reference)
                }
                pending.poll().release();
            } else {
                head.skipBytes(n);
            }
            left -= n;
        }
        acked += bytes;
        budget.give(bytes);
    }

    private ByteBuf slice(int length) {
        ByteBuf first = pending.peek();
        if (first.readableBytes() >= length) {
            return first.retainedSlice(first.readerIndex(), length);
        }
        CompositeByteBuf composite = PooledByteBufAllocator.DEFAULT.compositeBuffer(Math.max(2, pending.size()));
        int left = length;
        for (ByteBuf part : pending) {
            int n = Math.min(left, part.readableBytes());
            composite.addComponent(true, part.retainedSlice(part.readerIndex(), n));
            left -= n;
            if (left == 0) {
                break;
            }
        }
        return composite;
    }

    private void releaseAll() {
        batch = null;
        long held = written - acked;
        ByteBuf b;
        while ((b = pending.poll()) != null) {
            b.release();
        }
        if (held > 0) {
            acked = written;
            budget.give(held);
        }
    }
}
