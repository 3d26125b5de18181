package org.sessionj.runtime.internal.session;

import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The sessions of the current thread that hold batched output. Before a thread blocks on any input,
 * it flushes them all: batching then cannot deadlock programs that interleave several sessions
 * (chaining, rings), since no peer ever waits for output its sender is sitting on.
 *
 * <p>A thread that holds no batched output touches no thread-local: a counter per stripe of threads
 * (by thread id) says how many outputs the threads of the stripe have registered and not flushed, and
 * {@link #flushAll()} looks at the thread's list only when its stripe's count is not zero. A thread
 * that only receives (an idle session's requester, say) so never gets a thread-local map, which would
 * cost each of a million parked virtual threads ~190 bytes. Stripes are padded apart so that threads
 * of different stripes do not share a cache line; threads of one stripe may see each other's count and
 * then look at their own (empty) list for nothing.
 */
final class PendingOutputs {
    private static final ThreadLocal<ArrayList<SessionOutput>> PENDING = ThreadLocal.withInitial(() -> new ArrayList<>(4));
    /** Stripes (a power of two). */
    private static final int STRIPES = 64;
    /** Ints between two stripes' counters: 64 bytes. */
    private static final int PAD = 16;
    private static final AtomicIntegerArray REGISTERED = new AtomicIntegerArray(STRIPES * PAD);

    private PendingOutputs() {
    }

    private static int stripe() {
        return (int) (Thread.currentThread().threadId() & (STRIPES - 1)) * PAD;
    }

    /** Records that {@code output} holds output buffered by the current thread. */
    static void add(SessionOutput output) {
        PENDING.get().add(output);
        REGISTERED.getAndIncrement(stripe());
    }

    /** Forgets {@code output} (its socket is closing or moving), so the thread does not keep it alive. */
    static void remove(SessionOutput output) {
        if (REGISTERED.get(stripe()) != 0 && PENDING.get().remove(output)) {
            REGISTERED.getAndDecrement(stripe());
        }
    }

    /** Flushes every session the current thread buffered output on. */
    static void flushAll() {
        int stripe = stripe();
        if (REGISTERED.get(stripe) == 0) {
            return;
        }
        ArrayList<SessionOutput> pending = PENDING.get();
        int size = pending.size();
        if (size == 0) {
            return;
        }
        for (int i = 0; i < size; i++) {
            pending.get(i).flushPending();
        }
        REGISTERED.getAndAdd(stripe, -size);
        pending.clear();
    }
}
