package org.sessionj.runtime.spi.support;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An unbounded single-producer single-consumer queue of non-null elements that starts small and
 * grows only when its producer runs ahead: the queue under {@link HandoffQueue}.
 *
 * <p>The algorithm is JCTools' {@code SpscUnboundedArrayQueue} (a circular array; when the producer
 * finds it full it links a new array and leaves a {@link #JUMP} for the consumer), with two changes
 * for connections that are mostly idle or carry one message at a time: the first array has
 * {@link #FIRST_CAPACITY} slots and each new one twice the last (up to {@link #MAX_CAPACITY}), and the
 * fields are not padded against false sharing. JCTools pads each side onto cache lines of its own
 * (~300 bytes per queue) and starts with a fixed chunk; an idle in-JVM session has two queues, so that
 * was ~800 of its bytes, against ~150 here. Padding pays when both sides run flat out on different
 * cores; in a request/response exchange the lines move between the two cores with every message
 * anyway.
 *
 * <p>Each array has one slot more than its capacity, holding the link to the next array. The producer
 * keeps one slot free: it writes index {@code i} only if the slot of {@code i + 1} is empty, else it
 * links a new array and writes {@link #JUMP} at {@code i}'s slot of the old one, so the consumer never
 * mistakes a full array for an empty one.
 *
 * @param <E> the elements
 */
final class GrowingSpscQueue<E> {
    /** Slots of the first array: one message in flight each way needs no more. */
    static final int FIRST_CAPACITY = 2;
    /** Slots of the largest array; a longer backlog is a chain of arrays this size. */
    static final int MAX_CAPACITY = 1024;
    /** Left by the producer where the consumer must move on to the next array. */
    private static final Object JUMP = new Object();
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle CONSUMER_INDEX;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER_INDEX = lookup.findVarHandle(GrowingSpscQueue.class, "producerIndex", long.class);
            CONSUMER_INDEX = lookup.findVarHandle(GrowingSpscQueue.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Producer only. */
    private Object[] producerBuffer;
    /** Written by the producer (a release store: a plain store on x86), read by any thread for {@link #isEmpty}. */
    @SuppressWarnings("unused") // through PRODUCER_INDEX
    private long producerIndex;
    /** Consumer only. */
    private Object[] consumerBuffer;
    /** Written by the consumer (a release store), read by any thread for {@link #isEmpty}. */
    @SuppressWarnings("unused") // through CONSUMER_INDEX
    private long consumerIndex;

    GrowingSpscQueue() {
        Object[] first = new Object[FIRST_CAPACITY + 1];
        producerBuffer = first;
        consumerBuffer = first;
    }

    /** Producer: appends {@code element} (not null); the consumer sees it after this returns. */
    void offer(E element) {
        Object[] buffer = producerBuffer;
        long index = (long) PRODUCER_INDEX.get(this);
        int mask = buffer.length - 2;
        int offset = (int) index & mask;
        if (SLOT.getAcquire(buffer, ((int) index + 1) & mask) == null) {
            SLOT.setRelease(buffer, offset, element);
            PRODUCER_INDEX.setRelease(this, index + 1);
            return;
        }
        int capacity = Math.min((mask + 1) << 1, MAX_CAPACITY);
        Object[] next = new Object[capacity + 1];
        next[(int) index & (capacity - 1)] = element;
        buffer[buffer.length - 1] = next;
        producerBuffer = next;
        // Publishes the link and the element with it.
        SLOT.setRelease(buffer, offset, JUMP);
        PRODUCER_INDEX.setRelease(this, index + 1);
    }

    /** Consumer: removes and returns the next element, or null if none is queued. */
    @SuppressWarnings("unchecked")
    E poll() {
        Object[] buffer = consumerBuffer;
        long index = (long) CONSUMER_INDEX.get(this);
        int offset = (int) index & (buffer.length - 2);
        Object element = SLOT.getAcquire(buffer, offset);
        if (element == null) {
            return null;
        }
        if (element == JUMP) {
            buffer = (Object[]) buffer[buffer.length - 1];
            consumerBuffer = buffer;
            offset = (int) index & (buffer.length - 2);
            element = SLOT.getAcquire(buffer, offset);
        }
        SLOT.setRelease(buffer, offset, null);
        CONSUMER_INDEX.setRelease(this, index + 1);
        return (E) element;
    }

    /** Consumer: the next element without removing it, or null if none is queued. */
    @SuppressWarnings("unchecked")
    E peek() {
        Object[] buffer = consumerBuffer;
        long index = (long) CONSUMER_INDEX.get(this);
        Object element = SLOT.getAcquire(buffer, (int) index & (buffer.length - 2));
        if (element == JUMP) {
            Object[] next = (Object[]) buffer[buffer.length - 1];
            return (E) SLOT.getAcquire(next, (int) index & (next.length - 2));
        }
        return (E) element;
    }

    /**
     * Any thread: whether every element offered so far was taken (exact on the producer's and the
     * consumer's threads; from a third thread, as of some moment during the call).
     */
    boolean isEmpty() {
        long consumed = (long) CONSUMER_INDEX.getAcquire(this);
        return consumed == (long) PRODUCER_INDEX.getAcquire(this);
    }
}
