package org.sessionj.runtime.spi.support;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A building block for transports: the elements travelling in one direction of a connection, from
 * one producer thread to one consumer thread, with blocking reads that never hold a monitor (virtual
 * threads never pin) and the two ways a direction ends.
 *
 * <ul>
 *   <li>The <em>producer</em> {@linkplain #offer offers} elements and finally {@linkplain #end ends}:
 *       the consumer gets every element queued before the end, then {@link #endedException()}.
 *   <li>The <em>consumer</em> takes elements, waiting as its {@link SpinThenPark} strategy says;
 *       a timeout is not an end ({@link #take} returns null).
 *   <li>{@link #close} (any thread) ends the consumer's side: a waiting consumer wakes up and fails
 *       with {@link #closedException()} at once, later offers are refused, and the elements still
 *       queued are {@linkplain #release released} exactly once.
 * </ul>
 *
 * <p>A subclass supplies what differs between transports: how an element is released (a
 * {@code ByteBuf}'s reference count, say) and the exceptions, whose messages name its connection.
 * A subclass that knows why the producer ended (a broken channel) keeps that cause and reports it
 * from {@link #endedException()}.
 *
 * <p><b>Consumer operations.</b> The queue has one consumer at a time: {@link #enterConsumer()} begins
 * a consumer operation, {@link #exitConsumer()} ends it, and {@link #poll}, {@link #peek},
 * {@link #await} and {@link #isEndReached} may only be called in between. {@link #take} is one whole
 * consumer operation. A {@link #close} from another thread releases queued elements only when no
 * consumer operation runs; otherwise the operation releases them as it exits.
 *
 * <p><b>Elements that need no release.</b> A queue made with {@link #HandoffQueue(SpinThenPark, boolean)
 * needsRelease} false (an in-JVM connection's, whose frames are plain heap memory) skips all of that:
 * {@link #close} leaves queued elements to the garbage collector, so there is nothing for a consumer
 * operation to exclude, and {@link #enterConsumer()} and {@link #exitConsumer()} are a read of the state
 * and nothing: no atomic instruction on the path of every element (four per round trip on a
 * connection). Such a queue does not refuse a second consumer operation that overlaps a first; its
 * owner must keep to one consumer (a session does: one thread acts on it at a time).
 *
 * <p>The queue itself (the {@code GrowingSpscQueue} this class extends: unpadded, two slots at first,
 * growing only when the producer runs ahead) makes its first array on the first offer: a connection
 * that never carried anything costs no array, and an idle one that did one of 32 bytes.
 *
 * @param <E> the elements
 */
public abstract class HandoffQueue<E> extends GrowingSpscQueue<E> {
    /** The consumer's side was closed. */
    private static final int CLOSED = 1;
    /** The producer ended: the consumer gets the end once the queue is empty. */
    private static final int ENDED = 2;
    /** A consumer operation (or a drain after close) runs. */
    private static final int BUSY = 4;
    /** Set for good at construction: elements need no release, so consumer operations are not guarded. */
    private static final int UNGUARDED = 8;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(HandoffQueue.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The consumer while it is parked (or about to park). */
    private volatile Thread waiter;
    private volatile Runnable wakeListener;
    /** How the consumer waits (one shared object, not two ints per queue: a million idle queues each save 4 bytes). */
    private final SpinThenPark idle;
    /**
     * {@link #CLOSED}, {@link #ENDED}, {@link #BUSY} and {@link #UNGUARDED}, in one word so that each
     * change is one atomic step (and the mode costs no field of its own: a million idle queues).
     */
    private volatile int state;

    /** A queue whose consumer waits as {@code idle} says, and whose elements are released when never consumed. */
    protected HandoffQueue(SpinThenPark idle) {
        this(idle, true);
    }

    /**
     * A queue whose consumer waits as {@code idle} says.
     *
     * @param idle how the consumer waits
     * @param needsRelease false if an element that is never consumed may simply be dropped (the garbage
     *     collector takes it): {@link #close} then releases nothing and consumer operations cost no atomic
     *     instruction, but nothing stops two consumer operations from overlapping (see the class comment)
     */
    protected HandoffQueue(SpinThenPark idle, boolean needsRelease) {
        this.idle = idle;
        if (!needsRelease) {
            state = UNGUARDED;
        }
    }

    /**
     * Called by the consumer when it is about to park (its spins and yields found nothing), once per
     * wait: a transport whose producer sends no heartbeats (an in-JVM peer) can have the wait watched
     * from elsewhere, and {@link #wakeConsumer() wake} it. The default does nothing.
     */
    protected void parking() {
    }

    /** Called by the consumer when a wait that {@link #parking()} announced ends, however it ends. */
    protected void parked() {
    }

    /**
     * Called by a parked consumer after each wake-up that brought no element: throws to end the wait
     * (the producer was found gone). The default does nothing.
     *
     * @throws IOException to end the consumer's wait with it
     */
    protected void woke() throws IOException {
    }

    /**
     * Whether the consumer is in a wait that {@link #parking()} announced (from any thread): set before
     * {@code parking()} is called, cleared before {@link #parked()}, both with volatile writes.
     */
    protected final boolean isConsumerParked() {
        return waiter != null;
    }

    /** Wakes a parked consumer (which then calls {@link #woke()}), from any thread. */
    protected final void wakeConsumer() {
        wake();
    }

    /** Releases an element that will never be consumed (queued when the consumer's side closed). */
    protected abstract void release(E element);

    /** What a consumer gets once the consumer's side is closed. */
    protected abstract IOException closedException();

    /** What a consumer gets once the producer has ended and every element was taken. */
    protected abstract IOException endedException();

    /** What a consumer gets when it is interrupted while waiting (its interrupt status stays set). */
    protected abstract InterruptedIOException interruptedException();

    // ---- producer ----

    /**
     * Producer: appends {@code element} and wakes the consumer.
     *
     * @return false, leaving {@code element} to the caller, if the consumer's side is closed or the
     *     producer has ended; true when the queue took it over (it is consumed, or released if the
     *     consumer's side closes meanwhile)
     */
    public final boolean offer(E element) {
        return append(element, true);
    }

    /**
     * Producer: appends {@code element} without waking the consumer, for an element that is always
     * followed by one offered with {@link #offer} (a passed reference and then the frame that announces
     * it): a consumer woken for the first would only find half a message and park again. A spinning
     * consumer may still take it at once.
     *
     * @return as {@link #offer}
     */
    public final boolean offerWithoutWaking(E element) {
        return append(element, false);
    }

    private boolean append(E element, boolean wakeConsumer) {
        if ((state & (CLOSED | ENDED)) != 0) {
            return false;
        }
        enqueue(element);
        // The consumer publishes itself as waiter and then polls again; the fence orders our offer
        // before reading the waiter (and the state), so one of the two always sees the other: no
        // lost wake-up, and no element left behind by a close that drained just before.
        VarHandle.fullFence();
        if ((state & (CLOSED | UNGUARDED)) == CLOSED) {
            drainIfFree();
        }
        if (wakeConsumer) {
            wake();
        }
        return true;
    }

    /** Producer: ends this direction; the consumer gets the end after every element queued before. */
    public final void end() {
        int previous = (int) STATE.getAndBitwiseOr(this, ENDED);
        if ((previous & ENDED) == 0) {
            wake();
        }
    }

    /** Whether the producer has ended (elements may still be queued). */
    public final boolean isEnded() {
        return (state & ENDED) != 0;
    }

    // ---- any thread ----

    /**
     * Closes the consumer's side, from any thread: a waiting consumer wakes up and fails, later
     * offers are refused, and queued elements are released (now, or as the running consumer
     * operation exits). Idempotent.
     */
    public final void close() {
        int previous = (int) STATE.getAndBitwiseOr(this, CLOSED);
        if ((previous & CLOSED) != 0) {
            return;
        }
        wake();
        if ((previous & UNGUARDED) == 0) {
            drainIfFree();
        }
    }

    /** Whether the consumer's side is closed. */
    public final boolean isClosed() {
        return (state & CLOSED) != 0;
    }

    /**
     * Sets what runs on every wake-up of the consumer (each offer, the end and the close), on the
     * waking thread: a selector's readiness hook. It must be quick and must not block.
     */
    public final void wakeListener(Runnable listener) {
        this.wakeListener = listener;
    }

    // ---- consumer ----

    /**
     * Begins a consumer operation.
     *
     * @return false if the consumer's side is closed or (unless the elements need no release) another
     *     consumer operation runs
     */
    public final boolean enterConsumer() {
        int s = state;
        if ((s & UNGUARDED) != 0) {
            return (s & CLOSED) == 0;
        }
        return acquire(CLOSED | BUSY);
    }

    /** Ends the consumer operation; releases the queued elements if the consumer's side closed meanwhile. */
    public final void exitConsumer() {
        if ((state & UNGUARDED) != 0) {
            return;
        }
        int previous = (int) STATE.getAndBitwiseAnd(this, ~BUSY);
        if ((previous & CLOSED) != 0) {
            drainIfFree();
        }
    }

    /**
     * Waits for the next element, as one consumer operation of its own.
     *
     * @param timeoutNanos how long to wait; negative waits for ever
     * @return the element, or null if the timeout passed first
     * @throws IOException {@link #closedException()} if the consumer's side is closed (or another
     *     consumer operation runs), {@link #endedException()} if the producer ended and every element
     *     was taken, {@link #interruptedException()} if the thread is interrupted while waiting
     */
    public final E take(long timeoutNanos) throws IOException {
        if (!enterConsumer()) {
            throw closedException();
        }
        try {
            return await(timeoutNanos);
        } finally {
            exitConsumer();
        }
    }

    /**
     * Consumer operation: waits for the next element, polling, then spinning, then yielding, then parking.
     *
     * @param timeoutNanos how long to wait; negative waits for ever
     * @return the element, or null if the timeout passed first
     * @throws IOException as {@link #take}
     */
    public final E await(long timeoutNanos) throws IOException {
        E element = poll();
        if (element != null) {
            return element;
        }
        // The untimed wait of a virtual thread in a method of its own, small enough for the compiler to
        // inline into the caller's read: each frame between the program's loop and the yield is copied
        // off the carrier and back at every yield (measured: eight frames more cost ~45 ns per round trip).
        if (timeoutNanos < 0 && Thread.currentThread().isVirtual()) {
            return yieldThenPark();
        }
        return awaitSlowly(timeoutNanos);
    }

    /** {@link #await} without a timeout on a virtual thread, the queue found empty: yields, then parks. */
    private E yieldThenPark() throws IOException {
        for (int i = 0, yields = idle.yields(); i < yields && (state & (CLOSED | ENDED)) == 0; i++) {
            Thread.yield();
            E element = poll();
            if (element != null) {
                return element;
            }
        }
        return park(-1, 0);
    }

    /** {@link #await} on a platform thread or with a timeout, the queue found empty. */
    private E awaitSlowly(long timeoutNanos) throws IOException {
        E element;
        // A virtual thread does not spin: it would hold a carrier that the producer may need, while
        // a yield lets the scheduler run the producer on this very carrier, with no OS wake-up.
        boolean virtual = Thread.currentThread().isVirtual();
        SpinThenPark strategy = idle;
        int spinning = virtual ? 0 : strategy.spins();
        for (int i = 0; i < spinning && (state & (CLOSED | ENDED)) == 0; i++) {
            Thread.onSpinWait();
            element = poll();
            if (element != null) {
                return element;
            }
        }
        if (timeoutNanos < 0) {
            for (int i = 0, yields = strategy.yields(); i < yields && (state & (CLOSED | ENDED)) == 0; i++) {
                Thread.yield();
                element = poll();
                if (element != null) {
                    return element;
                }
            }
            return park(-1, 0);
        }
        long deadline = System.nanoTime() + timeoutNanos;
        // A timed wait yields only on a virtual thread: there a yield is a trip through the scheduler
        // (the timed park it saves schedules and cancels a timer task), while a platform thread's yield
        // may give away a whole time slice on a busy machine. The deadline bounds the yields too, read
        // every fourth yield only: a clock read costs a good part of a yield.
        if (virtual && timeoutNanos > 0) {
            for (int i = 0, yields = strategy.yields(); i < yields && (state & (CLOSED | ENDED)) == 0
                    && ((i & 3) != 3 || deadline - System.nanoTime() > 0); i++) {
                Thread.yield();
                element = poll();
                if (element != null) {
                    return element;
                }
            }
        }
        if (deadline - System.nanoTime() <= 0) {
            // The time is up (or was zero): one last look, without announcing a wait that will not happen.
            return pollOrFail();
        }
        return park(timeoutNanos, deadline);
    }

    /**
     * Consumer operation: the next element, or null if none is queued.
     *
     * @throws IOException {@link #closedException()} if the consumer's side is closed, {@link #endedException()}
     *     if the producer ended and every element was taken
     */
    private E pollOrFail() throws IOException {
        E element = poll();
        if (element != null) {
            return element;
        }
        int s = state;
        if ((s & CLOSED) != 0) {
            throw closedException();
        }
        if ((s & ENDED) != 0) {
            // Offered just before the end, after our poll above.
            element = poll();
            if (element != null) {
                return element;
            }
            throw endedException();
        }
        return null;
    }

    /** Parks until an element comes; {@code timeoutNanos} negative: for ever, else until {@code deadline} ({@link System#nanoTime()}). */
    private E park(long timeoutNanos, long deadline) throws IOException {
        waiter = Thread.currentThread();
        parking();
        try {
            while (true) {
                E element = pollOrFail();
                if (element != null) {
                    return element;
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
                    throw interruptedException();
                }
                woke();
            }
        } finally {
            waiter = null;
            parked();
        }
    }

    /** Consumer operation: removes the next element, or returns null if none is queued. */
    public final E poll() {
        return dequeue();
    }

    /** Consumer operation: the next element without removing it, or null if none is queued. */
    public final E peek() {
        return head();
    }

    /**
     * Whether an element of {@code type} is queued, looking past elements of other types without taking
     * them. Exact on the consumer's thread; from another thread (a readiness check racing the consumer)
     * an answer that may be stale either way, and harmless: it reads and writes nothing the consumer
     * relies on.
     *
     * @param type the class looked for
     * @return whether an instance of it is queued
     */
    public final boolean hasQueued(Class<?> type) {
        return queues(type);
    }

    /** Consumer operation: whether the producer ended and every element it queued was taken. */
    public final boolean isEndReached() {
        return (state & ENDED) != 0 && peek() == null;
    }

    // ---- internals ----

    /** Sets {@link #BUSY} unless one of {@code forbidden} is set. */
    private boolean acquire(int forbidden) {
        int s;
        do {
            s = state;
            if ((s & forbidden) != 0) {
                return false;
            }
        } while (!STATE.compareAndSet(this, s, s | BUSY));
        return true;
    }

    /** Releases the queued elements unless a consumer operation runs (it drains as it exits). */
    private void drainIfFree() {
        // Loops because the producer may offer while we drain: it then fails to acquire, and the
        // element it left is ours once we let go.
        while (isQueueNonEmpty() && acquire(BUSY)) {
            try {
                E element;
                while ((element = poll()) != null) {
                    release(element);
                }
            } finally {
                STATE.getAndBitwiseAnd(this, ~BUSY);
            }
        }
    }

    private boolean isQueueNonEmpty() {
        return !isQueueEmpty();
    }

    private void wake() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        Runnable l = wakeListener;
        if (l != null) {
            l.run();
        }
    }
}
