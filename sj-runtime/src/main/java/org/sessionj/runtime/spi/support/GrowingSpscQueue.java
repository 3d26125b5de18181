package org.sessionj.runtime.spi.support;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An unbounded single-producer single-consumer queue of non-null elements that starts small and
 * grows only when its producer runs ahead: the queue under {@link HandoffQueue}, which extends it so
 * that a connection's direction is one object (a separate queue object cost an idle in-JVM session two
 * object headers, two references and two {@code long} indices: ~64 bytes).
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
class GrowingSpscQueue<E> {
    /** Slots of the first array: one message in flight each way needs no more. */
    static final int FIRST_CAPACITY = 2;
    /** Slots of the largest array; a longer backlog is a chain of arrays this size. */
    static final int MAX_CAPACITY = 1024;
    /** Left by the producer where the consumer must move on to the next array. */
    private static final Object JUMP = new Object();
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle CONSUMER_INDEX;
    private static final VarHandle CONSUMER_BUFFER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER_INDEX = lookup.findVarHandle(GrowingSpscQueue.class, "producerIndex", int.class);
            CONSUMER_INDEX = lookup.findVarHandle(GrowingSpscQueue.class, "consumerIndex", int.class);
            CONSUMER_BUFFER = lookup.findVarHandle(GrowingSpscQueue.class, "consumerBuffer", Object[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Producer only; null until the first element. */
    private Object[] producerBuffer;
    /**
     * Written by the producer (a release store: a plain store on x86), read by any thread for {@link
     * #isQueueEmpty}. An int: indices are only ever masked (array sizes divide 2^32) or compared for
     * equality, so the wrap after 2^32 elements is harmless, and an int saves 4 bytes a queue.
     */
    @SuppressWarnings("unused") // through PRODUCER_INDEX
    private int producerIndex;
    /**
     * Consumer only once set; the producer sets it once, with a release store, as it makes the first
     * array, before any element is published in it.
     */
    @SuppressWarnings("unused") // also through CONSUMER_BUFFER
    private Object[] consumerBuffer;
    /** Written by the consumer (a release store), read by any thread for {@link #isQueueEmpty}. */
    @SuppressWarnings("unused") // through CONSUMER_INDEX
    private int consumerIndex;

    /** An empty queue; its first array is made by the first element (an idle connection that never carried one costs none). */
    GrowingSpscQueue() {
    }

    /** An empty queue whose indices start at {@code start} (tests: the wrap of the int indices). */
    GrowingSpscQueue(int start) {
        producerIndex = start;
        consumerIndex = start;
    }

    /** Producer: appends {@code element} (not null); the consumer sees it after this returns. */
    final void enqueue(E element) {
        Object[] buffer = producerBuffer;
        if (buffer == null) {
            buffer = new Object[FIRST_CAPACITY + 1];
            producerBuffer = buffer;
            // Published before the element: the consumer's acquire load of this field sees the array whole.
            CONSUMER_BUFFER.setRelease(this, buffer);
        }
        int index = (int) PRODUCER_INDEX.get(this);
        int mask = buffer.length - 2;
        int offset = index & mask;
        if (SLOT.getAcquire(buffer, (index + 1) & mask) == null) {
            SLOT.setRelease(buffer, offset, element);
            PRODUCER_INDEX.setRelease(this, index + 1);
            return;
        }
        int capacity = Math.min((mask + 1) << 1, MAX_CAPACITY);
        Object[] next = new Object[capacity + 1];
        next[index & (capacity - 1)] = element;
        buffer[buffer.length - 1] = next;
        producerBuffer = next;
        // Publishes the link and the element with it.
        SLOT.setRelease(buffer, offset, JUMP);
        PRODUCER_INDEX.setRelease(this, index + 1);
    }

    /** Consumer: removes and returns the next element, or null if none is queued. */
    @SuppressWarnings("unchecked")
    final E dequeue() {
        Object[] buffer = consumerArray();
        if (buffer == null) {
            return null;
        }
        int index = (int) CONSUMER_INDEX.get(this);
        int offset = index & (buffer.length - 2);
        Object element = SLOT.getAcquire(buffer, offset);
        if (element == null) {
            return null;
        }
        if (element == JUMP) {
            buffer = (Object[]) buffer[buffer.length - 1];
            consumerBuffer = buffer;
            offset = index & (buffer.length - 2);
            element = SLOT.getAcquire(buffer, offset);
        }
        SLOT.setRelease(buffer, offset, null);
        CONSUMER_INDEX.setRelease(this, index + 1);
        return (E) element;
    }

    /** Consumer: the next element without removing it, or null if none is queued. */
    @SuppressWarnings("unchecked")
    final E head() {
        Object[] buffer = consumerArray();
        if (buffer == null) {
            return null;
        }
        int index = (int) CONSUMER_INDEX.get(this);
        Object element = SLOT.getAcquire(buffer, index & (buffer.length - 2));
        if (element == JUMP) {
            Object[] next = (Object[]) buffer[buffer.length - 1];
            return (E) SLOT.getAcquire(next, index & (next.length - 2));
        }
        return (E) element;
    }

    /**
     * Whether an instance of {@code type} is queued (see {@link HandoffQueue#hasQueued}): reads from the
     * consumer's position to the first empty slot, following links, and changes nothing. A thread other
     * than the consumer may see an old array (where it finds an empty slot or the link) or an old index.
     */
    final boolean queues(Class<?> type) {
        Object[] buffer = consumerArray();
        if (buffer == null) {
            return false;
        }
        int index = (int) CONSUMER_INDEX.getAcquire(this);
        while (true) {
            Object element = SLOT.getAcquire(buffer, index & (buffer.length - 2));
            if (element == null) {
                return false;
            }
            if (element == JUMP) {
                buffer = (Object[]) buffer[buffer.length - 1];
            } else if (type.isInstance(element)) {
                return true;
            } else {
                index++;
            }
        }
    }

    /** Consumer: the array it reads, or null before the first element. */
    private Object[] consumerArray() {
        Object[] buffer = consumerBuffer;
        // A plain load finds it on every read but the first ones; until then, an acquire load (which the
        // compiler cannot hoist out of a polling loop) looks for the producer's first array.
        return buffer != null ? buffer : (Object[]) CONSUMER_BUFFER.getAcquire(this);
    }

    /**
     * Any thread: whether every element offered so far was taken. Exact on the consumer's thread while
     * the producer is still; otherwise a view that may lag behind either side (the caller, {@link
     * HandoffQueue}'s drain, polls under its own guard after a "not empty").
     */
    final boolean isQueueEmpty() {
        int consumed = (int) CONSUMER_INDEX.getAcquire(this);
        return consumed == (int) PRODUCER_INDEX.getAcquire(this);
    }
}
