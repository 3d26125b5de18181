package org.sessionj.runtime.internal.session;

import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The sessions of the current thread that hold batched output. Before a thread blocks on any input,
 * it flushes them all: batching then cannot deadlock programs that interleave several sessions
 * (chaining, rings), since no peer ever waits for output its sender is sitting on.
 *
 * <p>A thread that holds no batched output touches no thread-local: a counter per stripe of threads
 * (by thread id) says how many threads of the stripe hold a <em>mark</em>, and {@link #flushAll()}
 * looks at the thread's list only when its stripe's count is not zero. A thread that only receives (an
 * idle session's requester, say) so never gets a thread-local map, which would cost each of a million
 * parked virtual threads ~190 bytes. Stripes are padded apart so that threads of different stripes do
 * not share a cache line; threads of one stripe may see each other's mark and then look at their own
 * (empty) list for nothing.
 *
 * <p><b>The mark outlives the flush.</b> A thread takes the mark (an atomic increment of its stripe's
 * count) when it registers output with none held, and keeps it while its list is empty: it gives the
 * mark back (an atomic decrement) when a socket of its leaves it ({@link #remove}, on close or
 * delegation) and its list is empty, or after {@link #IDLE_FLUSHES} flushes in a row found nothing to
 * flush. So a thread that batches in every round trip (an {@code outwhile(true)} whose flag waits for
 * the {@code send} after it) pays no atomic instruction for it in the steady state, where taking and
 * giving back the mark each time cost two per round trip. The invariant that makes this safe: a
 * thread whose list is not empty holds the mark, so its stripe's count is not zero and
 * {@link #flushAll()} looks at the list. A thread that ends holding its mark (it batched, then neither
 * closed its sockets nor received again) leaves its stripe's count raised, as a thread that ended with
 * a batch registered always did: the other threads of that stripe then look at their own lists on
 * every receive (a thread-local map each), which costs memory, never a lost flush.
 */
final class PendingOutputs {
    private static final ThreadLocal<Pending> PENDING = ThreadLocal.withInitial(Pending::new);
    /** Stripes (a power of two). */
    private static final int STRIPES = 64;
    /** Ints between two stripes' counters: 64 bytes. */
    private static final int PAD = 16;
    /**
     * Flushes in a row that found the list empty after which a thread gives its mark back: enough that
     * a request/response loop batching once per round trip keeps it, few enough that a thread that
     * stopped batching soon stops making the other threads of its stripe look at their lists.
     */
    static final int IDLE_FLUSHES = 16;
    private static final AtomicIntegerArray MARKED = new AtomicIntegerArray(STRIPES * PAD);

    /** One thread's registered outputs and its mark. */
    private static final class Pending {
        final ArrayList<SessionOutput> outputs = new ArrayList<>(4);
        /** Whether this thread holds a mark on its stripe's count. */
        boolean marked;
        /** Flushes in a row that found {@link #outputs} empty. */
        int idleFlushes;
    }

    private PendingOutputs() {
    }

    private static int stripe() {
        return (int) (Thread.currentThread().threadId() & (STRIPES - 1)) * PAD;
    }

    /** Records that {@code output} holds output buffered by the current thread. */
    static void add(SessionOutput output) {
        Pending pending = PENDING.get();
        pending.outputs.add(output);
        pending.idleFlushes = 0;
        if (!pending.marked) {
            pending.marked = true;
            MARKED.getAndIncrement(stripe());
        }
    }

    /** Forgets {@code output} (its socket is closing or moving), so the thread does not keep it alive. */
    static void remove(SessionOutput output) {
        int stripe = stripe();
        if (MARKED.get(stripe) == 0) {
            return;
        }
        Pending pending = PENDING.get();
        pending.outputs.remove(output);
        if (pending.outputs.isEmpty()) {
            unmark(pending, stripe);
        }
    }

    /** Flushes every session the current thread buffered output on. */
    static void flushAll() {
        int stripe = stripe();
        if (MARKED.get(stripe) == 0) {
            return;
        }
        Pending pending = PENDING.get();
        ArrayList<SessionOutput> outputs = pending.outputs;
        int size = outputs.size();
        if (size == 0) {
            if (pending.marked && ++pending.idleFlushes >= IDLE_FLUSHES) {
                unmark(pending, stripe);
            }
            return;
        }
        for (int i = 0; i < size; i++) {
            outputs.get(i).flushPending();
        }
        outputs.clear();
    }

    private static void unmark(Pending pending, int stripe) {
        if (pending.marked) {
            pending.marked = false;
            pending.idleFlushes = 0;
            MARKED.getAndDecrement(stripe);
        }
    }

    /** Whether the current thread holds a mark on its stripe's count (for tests). */
    static boolean isMarked() {
        return MARKED.get(stripe()) != 0 && PENDING.get().marked;
    }
}
