package org.sessionj.runtime.internal.session;

import java.util.ArrayList;

/**
 * The sessions of the current thread that hold batched output. Before a thread blocks on any input,
 * it flushes them all: batching then cannot deadlock programs that interleave several sessions
 * (chaining, rings), since no peer ever waits for output its sender is sitting on.
 */
final class PendingOutputs {
    private static final ThreadLocal<ArrayList<SessionOutput>> PENDING = ThreadLocal.withInitial(() -> new ArrayList<>(4));

    private PendingOutputs() {
    }

    /** Records that {@code output} holds output buffered by the current thread. */
    static void add(SessionOutput output) {
        PENDING.get().add(output);
    }

    /** Forgets {@code output} (its socket is closing or moving), so the thread does not keep it alive. */
    static void remove(SessionOutput output) {
        PENDING.get().remove(output);
    }

    /** Flushes every session the current thread buffered output on. */
    static void flushAll() {
        ArrayList<SessionOutput> pending = PENDING.get();
        if (pending.isEmpty()) {
            return;
        }
        for (int i = 0; i < pending.size(); i++) {
            pending.get(i).flushPending();
        }
        pending.clear();
    }
}
