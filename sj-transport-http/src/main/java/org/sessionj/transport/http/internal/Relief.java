package org.sessionj.transport.http.internal;

import java.util.List;
import java.util.function.Predicate;

/**
 * The loop that a server's bounds share when they must make room: candidates as one look read them, taken in
 * order of rank, highest first, each dropped unless it changed or went meanwhile, until what the dropped ones
 * freed reaches the target. {@link StreamMemory} fails the connections holding the most bytes until the budget
 * is back under three quarters; {@link StalledHeads} evicts the connections idle longest until a batch is done.
 * (The tcp writers' budget, {@code UnsentBytes}, gives up the oldest waiting writers in the order it keeps them
 * under its lock: it has nothing to rank.)
 */
final class Relief {
    private Relief() {
    }

    /**
     * A candidate as one look read it.
     *
     * @param item what would be dropped
     * @param rank the higher, the sooner it goes
     * @param frees what dropping it frees, in the target's unit
     * @param <T> what is dropped
     */
    record Candidate<T>(T item, long rank, long frees) {
    }

    /**
     * Drops {@code candidates} (sorted here), the highest rank first, until what they freed reaches
     * {@code target}: {@code drop} claims and drops one, or answers false when it is gone or changed since the look
     * (then it frees nothing and the next is tried).
     *
     * @return how many were dropped
     */
    static <T> int highestFirst(List<Candidate<T>> candidates, long target, Predicate<Candidate<T>> drop) {
        candidates.sort((a, b) -> Long.compare(b.rank, a.rank));
        long freed = 0;
        int dropped = 0;
        for (Candidate<T> candidate : candidates) {
            if (freed >= target) {
                break;
            }
            if (drop.test(candidate)) {
                freed += candidate.frees;
                dropped++;
            }
        }
        return dropped;
    }
}
