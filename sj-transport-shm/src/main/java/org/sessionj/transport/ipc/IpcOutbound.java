package org.sessionj.transport.ipc;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The writing end of one ring. Sends are asynchronous, as on the other transports: a frame goes
 * straight into the ring when it fits, and otherwise (the reader is behind) into a backlog that a
 * virtual thread moves into the ring as space frees up. The backlog is bounded as TCP's buffers
 * are: past {@code backlogBytes} a writer waits for the reader, at most its send timeout, so a reader
 * that stops reading costs the writer a bounded amount of memory. Frames longer than a record are
 * split into FIRST/MIDDLE/LAST records. After appending, the writer rings the peer's doorbell if
 * the peer's reader said it sleeps.
 *
 * <p>Only the holder of {@link #producer} appends (the ring has a single producer); the lock is a
 * {@link ReentrantLock}, so a virtual thread waiting for it does not pin.
 */
final class IpcOutbound {
    /** How long a close waits for the backlog to enter the ring before it gives up on it (after a write timed out, not at all). */
    private static final long CLOSE_BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final SharedRing ring;
    private final ByteBuffer bytes;
    private final IpcMemory memory;
    private final int direction;
    private final Doorbell doorbell;
    private final IpcInbound inbound;
    private final int maxRecord;
    private final int maxFrame;
    private final long maxBacklog;
    /**
     * What each frame in the backlog costs beyond its bytes (its buffer object, reference count, queue node
     * and {@code Pending}), charged against {@code sessionj.ipc.backlogBytes} with its bytes, as the tcp
     * transport's marks charge theirs. The bound counted bytes only, so a peer that pipelined requests and
     * never read held 488,448 nine-byte answers (78 MB of heap, and their direct buffers) behind a 4 MiB
     * bound (hostile H6); now at most ~30,000 such frames.
     */
    static final int FRAME_COST = 128;

    /** Bytes in the backlog not yet in the ring, plus {@link #FRAME_COST} per frame there. */
    private final java.util.concurrent.atomic.AtomicLong backlogBytes = new java.util.concurrent.atomic.AtomicLong();
    /** How long a writer waits for the backlog to shrink; negative: as long as the connection lives. */
    private volatile long sendTimeoutNanos = -1;
    private final ReentrantLock producer = new ReentrantLock();
    private final ConcurrentLinkedQueue<Pending> backlog = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private volatile boolean closed;
    /**
     * A write waited past the send timeout (the reader takes nothing), or the session failed: a close drops the
     * backlog at once (before, it waited 10 s for it: a send with a 2 s timeout failed after 12 s).
     */
    private volatile boolean writeTimedOut;
    /** Why the backlog could not be delivered, reported by the next write. */
    private volatile IOException failure;

    /** The peer's doorbell (the connection's Unix socket). */
    interface Doorbell {
        void ring() throws IOException;
    }

    /** A frame, and how much of it is already in the ring. */
    private static final class Pending {
        final ByteBuf frame;
        int sent;
        private boolean released;

        Pending(ByteBuf frame) {
            this.frame = frame;
        }

        /** Releases the frame once, whether it was sent whole or given up. */
        void release() {
            if (!released) {
                released = true;
                frame.release();
            }
        }
    }

    /** The writer of ring {@code direction} of {@code memory}; {@code inbound} tells whether the peer is gone. */
    IpcOutbound(IpcMemory memory, int direction, Doorbell doorbell, IpcInbound inbound, int maxFrame, long maxBacklog) {
        this.maxBacklog = maxBacklog;
        this.ring = memory.ring(direction);
        this.bytes = ring.bytes();
        this.memory = memory;
        this.direction = direction;
        this.doorbell = doorbell;
        this.inbound = inbound;
        this.maxRecord = ring.maxPayload();
        this.maxFrame = maxFrame;
    }

    /** Sends {@code frame} (taking it over) now or, if the ring is full, from the backlog. */
    void write(ByteBuf frame) throws IOException {
        IOException refused = closed ? new IOException("ipc connection already closed")
                : inbound.isPeerGone() ? inbound.peerGoneWhile("writing")
                : failure;
        if (refused == null && frame.readableBytes() > maxFrame) {
            refused = new IOException("cannot send a frame of " + frame.readableBytes()
                    + " bytes over ipc: longer than sessionj.ipc.maxFrame (" + maxFrame + ")");
        }
        if (refused != null) {
            frame.release();
            throw refused;
        }
        Pending pending = new Pending(frame);
        if (backlog.isEmpty() && producer.tryLock()) {
            try {
                if (closed) {
                    // Closed since the look above: the close has had the lock, and the memory may be unmapped
                    // by now (IpcConnection): nothing may append after it.
                    pending.release();
                    throw new IOException("ipc connection already closed");
                }
                if (backlog.isEmpty() && append(pending)) {
                    return;
                }
            } catch (IOException e) {
                pending.release();
                throw e;
            } catch (InternalError e) { // a fault raised asynchronously past append's own guard (MemoryFault)
                pending.release();
                throw MemoryFault.io(e);
            } finally {
                producer.unlock();
            }
        }
        backlogBytes.addAndGet(pending.frame.readableBytes() - pending.sent + FRAME_COST);
        backlog.add(pending);
        if (closed) { // the close may have released the backlog before this frame joined it
            producer.lock(); // after the close's own release of the backlog, never during it
            try {
                releaseBacklog();
            } finally {
                producer.unlock();
            }
            throw new IOException("ipc connection already closed");
        }
        startDrainer();
        if (backlogBytes.get() > maxBacklog) {
            awaitBacklogBelowBound();
        }
    }

    /** Bounds the wait for room; see {@link org.sessionj.runtime.spi.Connection#sendTimeout}. */
    void sendTimeout(long timeoutNanos) {
        this.sendTimeoutNanos = timeoutNanos;
    }

    /** Bytes written and not yet in the ring. */
    long backlogBytes() {
        return backlogBytes.get();
    }

    /** Waits until the drainer has moved the backlog under the bound, the connection fails, or the send timeout. */
    private void awaitBacklogBelowBound() throws IOException {
        long timeout = sendTimeoutNanos;
        long deadline = System.nanoTime() + timeout;
        int idle = 0;
        while (backlogBytes.get() > maxBacklog) {
            IOException broken = closed ? new IOException("ipc connection closed while waiting to write")
                    : inbound.isPeerGone() ? inbound.peerGoneWhile("waiting to write") : failure;
            if (broken != null) {
                throw broken;
            }
            if (timeout >= 0 && deadline - System.nanoTime() <= 0) {
                writeTimedOut = true;
                throw new org.sessionj.runtime.spi.WriteTimeoutException("the ipc peer took nothing for "
                        + java.time.Duration.ofNanos(timeout) + " with " + backlogBytes.get()
                        + " bytes waiting to enter its ring (frame bytes and " + FRAME_COST + " per frame;"
                        + " sessionj.ipc.backlogBytes " + maxBacklog + ")");
            }
            idle = backOff(idle);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while waiting to write over ipc");
            }
        }
    }

    /**
     * Appends as much of {@code pending} as fits without waiting; rings the doorbell if anything went in.
     *
     * @return whether all of it went in (then the frame is released)
     */
    private boolean append(Pending pending) throws IOException {
        try {
            return appendToRing(pending);
        } catch (InternalError e) { // the file under the mapping shrank (MemoryFault)
            throw MemoryFault.io(e);
        }
    }

    private boolean appendToRing(Pending pending) throws IOException {
        ByteBuf frame = pending.frame;
        int total = frame.readableBytes();
        boolean progress = false;
        try {
            while (true) {
                int remaining = total - pending.sent;
                int type;
                int prefix = 0;
                int chunk;
                if (pending.sent == 0 && total <= maxRecord) {
                    type = Records.FRAME;
                    chunk = total;
                } else if (pending.sent == 0) {
                    type = Records.FIRST;
                    prefix = 4;
                    chunk = maxRecord - 4;
                } else {
                    chunk = Math.min(remaining, maxRecord);
                    type = chunk == remaining ? Records.LAST : Records.MIDDLE;
                }
                int index = ring.claim(type, prefix + chunk);
                if (index < 0) {
                    return false;
                }
                bytes.clear(); // absolute accesses check the limit a previous copy left
                if (prefix != 0) {
                    bytes.putInt(index, total);
                }
                bytes.limit(index + prefix + chunk).position(index + prefix);
                frame.getBytes(frame.readerIndex() + pending.sent, bytes);
                ring.commit();
                progress = true;
                pending.sent += chunk;
                if (pending.sent == total) {
                    pending.release();
                    return true;
                }
            }
        } finally {
            if (progress) {
                ringIfAsleep();
            }
        }
    }

    private void ringIfAsleep() throws IOException {
        VarHandle.fullFence(); // appended, then read the flag: the sleeping reader set it, then polls
        if (memory.wake(direction)) {
            doorbell.ring();
        }
    }

    private void startDrainer() {
        if (draining.compareAndSet(false, true)) {
            Thread.ofVirtual().name("sj-ipc-drain").start(this::drain);
        }
    }

    /** Moves the backlog into the ring as space frees up, until it is empty or the connection fails. */
    private void drain() {
        while (true) {
            producer.lock();
            try {
                Pending head;
                int idle = 0;
                while (!closed && (head = backlog.peek()) != null) {
                    int before = head.sent;
                    boolean whole = append(head);
                    backlogBytes.addAndGet(-(long) (head.sent - before));
                    if (whole) {
                        backlog.poll();
                        backlogBytes.addAndGet(-FRAME_COST);
                        idle = 0;
                    } else if (inbound.isPeerGone()) {
                        throw new IOException("ipc connection closed by the peer");
                    } else {
                        idle = backOff(idle);
                    }
                }
            } catch (IOException e) {
                failure = e;
                releaseBacklog();
            } finally {
                producer.unlock();
            }
            draining.set(false);
            // A write may have queued after our last look and found us still running; a close takes over.
            if (closed || backlog.isEmpty() || !draining.compareAndSet(false, true)) {
                return;
            }
        }
    }

    /** Waits a little for the reader to free space: spin, then yield, then park for growing spells (up to 0.5 ms). */
    private static int backOff(int idle) {
        if (idle < 100) {
            Thread.onSpinWait();
        } else if (idle < 120) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(500_000L, 1_000L << Math.min(idle - 120, 9)));
        }
        return idle + 1;
    }

    private void releaseBacklog() {
        Pending p;
        while ((p = backlog.poll()) != null) {
            backlogBytes.addAndGet(-(long) (p.frame.readableBytes() - p.sent) - FRAME_COST);
            p.release();
        }
    }

    /**
     * The session failed: the next {@link #close} does not wait for the reader. What the ring takes at once
     * (a frame written before went in directly if there was room) stays; the backlog is dropped.
     */
    void dropBacklogOnClose() {
        writeTimedOut = true;
    }

    /**
     * Closes this direction: after the backlog (waiting for the reader at most a bound), a close
     * record, and a ring of the doorbell. Idempotent; returns once the records are in the shared memory.
     */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        long deadline = System.nanoTime() + (writeTimedOut ? 0 : CLOSE_BOUND_NANOS);
        producer.lock();
        try {
            int idle = 0;
            Pending head;
            while ((head = backlog.peek()) != null && failure == null && !inbound.isPeerGone()
                    && System.nanoTime() - deadline < 0) {
                int before = head.sent;
                boolean whole = append(head);
                backlogBytes.addAndGet(-(long) (head.sent - before));
                if (whole) {
                    backlog.poll();
                    backlogBytes.addAndGet(-FRAME_COST);
                } else {
                    idle = backOff(idle);
                }
            }
            releaseBacklog();
            // The close record goes in if there is room now, or comes within the bound.
            while (failure == null && !inbound.isPeerGone()) {
                if (ring.claim(Records.CLOSE, 0) >= 0) {
                    ring.commit();
                    VarHandle.fullFence();
                    memory.wake(direction);
                    doorbell.ring(); // always: a reader may be about to sleep, and the socket ends next anyway
                    break;
                }
                if (System.nanoTime() - deadline >= 0) {
                    break;
                }
                idle = backOff(idle);
            }
        } catch (IOException | InternalError e) {
            // The peer is gone, or the memory faulted (MemoryFault): the peer sees the socket's end instead.
        } finally {
            releaseBacklog();
            producer.unlock();
        }
    }
}
