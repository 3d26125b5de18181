package org.sessionj.runtime.internal.session;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The sessions of the current thread that hold batched output. Before a thread blocks on any input,
 * it flushes them all: batching then cannot deadlock programs that interleave several sessions
 * (chaining, rings), since no peer ever waits for output its sender is sitting on.
 *
 * <p>Threads are spread over {@value #STRIPES} stripes by thread id. Each stripe has one <em>owner</em>
 * slot: the first thread of the stripe that batches claims it (a compare-and-set, once per thread), and
 * from then on keeps its list in the slot, so that registering a batch and flushing it before a receive
 * is a few plain loads and stores: no atomic instruction and no thread-local look-up on the path of a
 * loop that batches its condition with the message after it ({@code outwhile(true); send(x); receive()}).
 * A thread that finds its stripe's slot held by a live thread keeps its list in a thread-local instead,
 * counted per stripe with atomic adds as before. The slot of a thread that ended goes to the next thread
 * of the stripe that batches (the ended thread's list, which no one can flush any more, with it).
 *
 * <p>A thread that holds no batched output touches no thread-local: {@link #flushAll()} looks at the
 * thread-local list only when its stripe's count of such lists is not zero. A thread that only receives
 * (an idle session's requester, say) so never gets a thread-local map, which would cost each of a
 * million parked virtual threads ~190 bytes. Counters are padded apart so that threads of different
 * stripes do not share a cache line; threads of one stripe may see each other's count and then look at
 * their own (empty) list for nothing.
 */
final class PendingOutputs {
    private static final ThreadLocal<Outputs> PENDING = ThreadLocal.withInitial(Outputs::new);
    /** Stripes (a power of two). */
    private static final int STRIPES = 64;
    /** Ints between two stripes' counters: 64 bytes. */
    private static final int PAD = 16;
    /** Per stripe: outputs registered on thread-local lists (threads that do not own the stripe's slot). */
    private static final AtomicIntegerArray REGISTERED = new AtomicIntegerArray(STRIPES * PAD);
    /**
     * Per stripe: the slot's owner and its list, or null. Changed only by compare-and-set (a claim); read
     * by every batching or receiving thread of the stripe, which compares the owner with itself: a thread
     * sees itself there exactly when it holds the slot, since only a thread that ended loses it.
     */
    private static final AtomicReferenceArray<Owner> OWNERS = new AtomicReferenceArray<>(STRIPES);

    private PendingOutputs() {
    }

    private static int stripe(Thread thread) {
        return (int) (thread.threadId() & (STRIPES - 1));
    }

    /** Records that {@code output} holds output buffered by the current thread. */
    static void add(SessionOutput output) {
        Thread current = Thread.currentThread();
        Owner owner = OWNERS.get(stripe(current));
        if (owner != null && owner.thread == current) {
            owner.pending.add(output);
            return;
        }
        addElsewhere(current, output);
    }

    /** {@link #add} for a thread that does not hold its stripe's slot (yet): once per thread, or rare. */
    private static void addElsewhere(Thread current, SessionOutput output) {
        int stripe = stripe(current);
        Owner owner = OWNERS.get(stripe);
        if (owner == null || !owner.thread.isAlive()) {
            // The slot is free, or its owner ended (its list, which no thread can flush any more, goes).
            Owner claim = new Owner(current);
            if (OWNERS.compareAndSet(stripe, owner, claim)) {
                claim.pending.add(output);
                return;
            }
        }
        PENDING.get().add(output);
        REGISTERED.getAndIncrement(stripe * PAD);
    }

    /** Forgets {@code output} (its socket is closing or moving), so the thread does not keep it alive. */
    static void remove(SessionOutput output) {
        Thread current = Thread.currentThread();
        int stripe = stripe(current);
        Owner owner = OWNERS.get(stripe);
        if (owner != null && owner.thread == current && owner.pending.remove(output)) {
            return;
        }
        if (REGISTERED.get(stripe * PAD) != 0 && PENDING.get().remove(output)) {
            REGISTERED.getAndDecrement(stripe * PAD);
        }
    }

    /** Flushes every session the current thread buffered output on. */
    static void flushAll() {
        Thread current = Thread.currentThread();
        int stripe = stripe(current);
        Owner owner = OWNERS.get(stripe);
        if (owner != null && owner.thread == current) {
            owner.pending.flush();
        }
        // Registered before the thread held the slot (while an owner that has ended since still lived).
        if (REGISTERED.get(stripe * PAD) != 0) {
            flushThreadLocal(stripe);
        }
    }

    private static void flushThreadLocal(int stripe) {
        Outputs pending = PENDING.get();
        int size = pending.size;
        if (size != 0) {
            pending.flush();
            REGISTERED.getAndAdd(stripe * PAD, -size);
        }
    }

    /** Whether the current thread holds its stripe's slot (for tests). */
    static boolean holdsSlot() {
        Thread current = Thread.currentThread();
        Owner owner = OWNERS.get(stripe(current));
        return owner != null && owner.thread == current;
    }

    /** The stripe of {@code thread} (for tests: threads of one stripe share a slot). */
    static int stripeOf(Thread thread) {
        return stripe(thread);
    }

    /**
     * The outputs of one thread, in the order registered: an array and a count, rather than an
     * {@code ArrayList}, whose methods' profile the whole JVM shares, so that the compiler inlined its
     * growth into every batching action.
     */
    static final class Outputs {
        private SessionOutput[] outputs = new SessionOutput[4];
        private int size;

        void add(SessionOutput output) {
            if (size == outputs.length) {
                outputs = Arrays.copyOf(outputs, size * 2);
            }
            outputs[size++] = output;
        }

        /** Removes {@code output} if it is listed; whether it was. */
        boolean remove(SessionOutput output) {
            for (int i = 0; i < size; i++) {
                if (outputs[i] == output) {
                    System.arraycopy(outputs, i + 1, outputs, i, size - i - 1);
                    outputs[--size] = null;
                    return true;
                }
            }
            return false;
        }

        /** Flushes and empties the list (its thread only). */
        void flush() {
            for (int i = 0, n = size; i < n; i++) {
                SessionOutput output = outputs[i];
                outputs[i] = null;
                output.flushPending();
            }
            size = 0;
        }
    }

    /** A thread holding a stripe's slot, and its list (used by that thread only). */
    private static final class Owner {
        final Thread thread;
        final Outputs pending = new Outputs();

        Owner(Thread thread) {
            this.thread = thread;
        }
    }
}
