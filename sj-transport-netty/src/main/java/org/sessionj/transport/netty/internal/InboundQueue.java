package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.SpscUnboundedArrayQueue;

/**
 * The frames received on one connection and not yet read: the channel's event loop is the single
 * producer, the connection's reader the single consumer. A reader spins briefly, then parks; no
 * monitors are held while waiting, so virtual threads never pin.
 *
 * <p>Three ways to end: the producer's end (the channel went inactive, perhaps with a failure),
 * which the reader sees after every queued frame; the local close, which the reader sees at once
 * and which releases the queued frames; and timeouts, which are not an end.
 */
final class InboundQueue {
    private static final int CHUNK = 16;
    private static final VarHandle CONSUMER_LOCK;

    static {
        try {
            CONSUMER_LOCK = MethodHandles.lookup().findVarHandle(InboundQueue.class, "consumerLock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SpscUnboundedArrayQueue<ByteBuf> frames = new SpscUnboundedArrayQueue<>(CHUNK);
    private final int spins;
    private volatile Thread waiter;
    private volatile Runnable listener;
    /** The channel ended: the reader gets the end once the queue is empty. */
    private volatile boolean ended;
    /** Why the channel ended, if it broke rather than closed. */
    private volatile Throwable failure;
    /** This end was closed locally: reads fail at once, frames are dropped. */
    private volatile boolean closed;
    /** 1 while a consumer operation or a drain runs: the queue has one consumer at a time. */
    @SuppressWarnings("unused")
    private volatile int consumerLock;

    InboundQueue(int spins) {
        this.spins = spins;
    }

    /** Producer (event loop): appends a frame and wakes the reader. */
    void offer(ByteBuf frame) {
        frames.offer(frame);
        // The reader publishes itself as waiter and then polls again; the fence orders our offer
        // before reading the waiter, so one of the two always sees the other.
        VarHandle.fullFence();
        if (closed) {
            drainIfFree();
        }
        wake();
    }

    /** Producer (event loop): the channel ended, broken by {@code cause} if not null. */
    void end(Throwable cause) {
        if (cause != null && failure == null) {
            failure = cause;
        }
        ended = true;
        VarHandle.fullFence();
        wake();
    }

    /** Records why the channel broke, before {@link #end} reports it. */
    void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    /** Any thread: closes this end; the reader wakes up and queued frames are released. */
    void close() {
        closed = true;
        VarHandle.fullFence();
        wake();
        drainIfFree();
    }

    void listener(Runnable listener) {
        this.listener = listener;
    }

    /**
     * Reader: the next frame.
     *
     * @return the frame, or null if {@code timeoutNanos} (non-negative) passed first
     * @throws IOException if this end is closed, or the channel ended and every frame was read
     */
    ByteBuf take(long timeoutNanos, String description) throws IOException {
        if (!enter()) {
            throw closedLocally(description);
        }
        try {
            ByteBuf frame = frames.poll();
            if (frame != null) {
                return frame;
            }
            for (int i = 0; i < spins && !ended && !closed; i++) {
                Thread.onSpinWait();
                frame = frames.poll();
                if (frame != null) {
                    return frame;
                }
            }
            return await(timeoutNanos, description);
        } finally {
            exit();
        }
    }

    private ByteBuf await(long timeoutNanos, String description) throws IOException {
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        waiter = Thread.currentThread();
        try {
            while (true) {
                ByteBuf frame = frames.poll();
                if (frame != null) {
                    return frame;
                }
                if (closed) {
                    throw closedLocally(description);
                }
                if (ended) {
                    frame = frames.poll();
                    if (frame != null) {
                        return frame;
                    }
                    throw endOfStream(description);
                }
                if (timeoutNanos < 0) {
                    LockSupport.park(this);
                } else {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        return null;
                    }
                    LockSupport.parkNanos(this, remaining);
                }
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading from " + description);
                }
            }
        } finally {
            waiter = null;
        }
    }

    /** Reader: whether a take would return at once (a frame or an end). */
    boolean isReadable() {
        if (!enter()) {
            return true;
        }
        try {
            return !frames.isEmpty() || ended;
        } finally {
            exit();
        }
    }

    private IOException endOfStream(String description) {
        Throwable cause = failure;
        if (cause == null) {
            return new IOException("connection closed by the peer (" + description + ")");
        }
        return new IOException("connection broken (" + description + "): " + reason(cause), cause);
    }

    /** The most telling message of a failure: Netty wraps decoder and TLS errors. */
    static String reason(Throwable cause) {
        Throwable t = cause;
        while (t.getCause() != null && (t.getMessage() == null || t.getMessage().equals(t.getCause().toString()))) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    private static IOException closedLocally(String description) {
        return new IOException("connection already closed (" + description + ")");
    }

    private boolean enter() {
        return !closed && CONSUMER_LOCK.compareAndSet(this, 0, 1);
    }

    private void exit() {
        CONSUMER_LOCK.setVolatile(this, 0);
        if (closed) {
            drainIfFree();
        }
    }

    /** Releases queued frames unless a consumer operation runs (it drains when it leaves). */
    private void drainIfFree() {
        while (!frames.isEmpty() && CONSUMER_LOCK.compareAndSet(this, 0, 1)) {
            ByteBuf frame;
            while ((frame = frames.poll()) != null) {
                frame.release();
            }
            CONSUMER_LOCK.setVolatile(this, 0);
        }
    }

    private void wake() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        Runnable l = listener;
        if (l != null) {
            l.run();
        }
    }
}
