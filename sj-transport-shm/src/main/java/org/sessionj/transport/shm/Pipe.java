package org.sessionj.transport.shm;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jctools.queues.SpscUnboundedArrayQueue;

/**
 * One direction of an in-JVM connection: a lock-free single-producer single-consumer queue, a waiter
 * slot for the parked consumer, and the close flags of both ends. Waiting is a short spin, then
 * {@link LockSupport#park}: no monitors, so virtual threads never pin.
 */
final class Pipe {
    /** Consumer poll attempts before parking; a wake-up across cores costs tens of microseconds. */
    static final int SPINS = Integer.getInteger("sessionj.shm.spins", 200);
    private static final int CHUNK = 16;
    private static final VarHandle CONSUMER_LOCK;

    static {
        try {
            CONSUMER_LOCK = MethodHandles.lookup().findVarHandle(Pipe.class, "consumerLock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Created by the producer on first use: an idle connection costs no queue memory. */
    private volatile SpscUnboundedArrayQueue<Object> queue;
    private volatile Thread waiter;
    private volatile Runnable listener;
    /** The producing end closed: the consumer sees the close once the queue is empty. */
    private volatile boolean producerClosed;
    /** The consuming end closed: further offers fail. */
    private volatile boolean consumerClosed;
    /** 1 while a consumer operation (or the final drain) runs; a close from another thread drains only when free. */
    @SuppressWarnings("unused")
    private volatile int consumerLock;

    /** Producer: appends {@code element} and wakes the consumer. */
    void offer(Object element) throws IOException {
        if (consumerClosed) {
            throw new IOException("in-JVM connection closed by the peer");
        }
        if (producerClosed) {
            throw new IOException("in-JVM connection already closed");
        }
        SpscUnboundedArrayQueue<Object> q = queue;
        if (q == null) {
            q = new SpscUnboundedArrayQueue<>(CHUNK);
            queue = q;
        }
        q.offer(element);
        // The consumer publishes its waiter and then re-polls; this fence orders our offer before
        // reading the waiter, so one of the two always sees the other (no lost wake-up).
        VarHandle.fullFence();
        wake();
    }

    /** Producer side closing: the consumer reads what is queued, then gets the close. */
    void closeProducer() {
        producerClosed = true;
        VarHandle.fullFence();
        wake();
    }

    /**
     * Consumer side closing (from any thread): later offers fail, a waiting consumer wakes up, and
     * queued elements are released by whoever leaves the consumer operation last.
     */
    void closeConsumer(Consumer<Object> release) {
        consumerClosed = true;
        VarHandle.fullFence();
        wake();
        drainIfFree(release);
    }

    boolean isConsumerClosed() {
        return consumerClosed;
    }

    void listener(Runnable listener) {
        this.listener = listener;
    }

    /** Consumer: enters a consumer operation; false if this end is closed. */
    boolean enterConsumer() {
        return !consumerClosed && CONSUMER_LOCK.compareAndSet(this, 0, 1);
    }

    /** Consumer: leaves a consumer operation; drains if this end was closed meanwhile. */
    void exitConsumer(Consumer<Object> release) {
        CONSUMER_LOCK.setVolatile(this, 0);
        if (consumerClosed) {
            drainIfFree(release);
        }
    }

    private void drainIfFree(Consumer<Object> release) {
        if (CONSUMER_LOCK.compareAndSet(this, 0, 1)) {
            // Left held for good: nobody consumes from a closed end again.
            Object element;
            while ((element = poll()) != null) {
                release.accept(element);
            }
        }
    }

    /** Consumer: the next element without removing it, or null. */
    Object peek() {
        SpscUnboundedArrayQueue<Object> q = queue;
        return q == null ? null : q.peek();
    }

    /** Consumer: removes the next element, or null. */
    Object poll() {
        SpscUnboundedArrayQueue<Object> q = queue;
        return q == null ? null : q.poll();
    }

    /** Whether the producer has closed and everything it queued has been taken. */
    boolean isDrainedAndClosed() {
        return producerClosed && peek() == null;
    }

    /**
     * Consumer: waits for the next element.
     *
     * @return the element, or null when {@code timeoutNanos} (non-negative) passed first
     * @throws IOException when the producer closed and the queue is empty
     */
    Object take(long timeoutNanos) throws IOException {
        Object element = poll();
        if (element != null) {
            return element;
        }
        for (int i = 0; i < SPINS && !producerClosed; i++) {
            Thread.onSpinWait();
            element = poll();
            if (element != null) {
                return element;
            }
        }
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        waiter = Thread.currentThread();
        try {
            while (true) {
                element = poll();
                if (element != null) {
                    return element;
                }
                if (consumerClosed) {
                    throw new IOException("in-JVM connection closed");
                }
                if (producerClosed) {
                    element = poll();
                    if (element != null) {
                        return element;
                    }
                    throw new IOException("in-JVM connection closed by the peer");
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
                    throw new InterruptedIOException("interrupted while waiting on an in-JVM connection");
                }
            }
        } finally {
            waiter = null;
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
