package org.sessionj.transport.netty.internal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * What peers that take nothing may make this process hold in frames written for them. A writer waits once
 * {@code sessionj.tcp.outboundHighBytes} (512 KiB) are unsent, but a frame is queued whole before that wait,
 * so each stalled connection holds up to a whole frame (16 MiB): a peer that asks for a large message and
 * never reads it (while it sends heartbeats, so the heartbeat timeout never fires, and with
 * {@code sessionj.sendTimeout} off by default) held it for ever, and 16 such peers filled a 128 MiB heap
 * (hostile H2). A process-wide budget ({@code sessionj.tcp.unsentBytes}, by default a quarter of the smaller
 * of the heap and the direct-memory limit, as {@link UnfinishedFrames#defaultBudget}) bounds the bytes held
 * by writers that wait for their peer: a writer that starts waiting with the total past the budget makes room
 * by giving up the writers that have waited longest (their connections fail, naming the rule, and their
 * frames are released); the newcomer itself always waits, so the total stays under the budget plus one
 * writer's bytes. A peer that takes nothing waits longer than any that reads, so it goes first.
 *
 * <p>Thread-safe; one lock per wait of a writer (a writer that never waits is never seen here).
 */
public final class UnsentBytes {
    private static volatile UnsentBytes shared;

    private final long budgetBytes;
    /** Guarded by {@code this}: bytes held by the writers in {@link #waiting}. */
    private long used;
    /** Guarded by {@code this}: the writers waiting for their peer, oldest first. */
    private final LinkedHashSet<Wait> waiting = new LinkedHashSet<>();

    /** A budget of {@code budgetBytes} for the bytes of all waiting writers together. */
    public UnsentBytes(long budgetBytes) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("sessionj.tcp.unsentBytes must be positive, found " + budgetBytes);
        }
        this.budgetBytes = budgetBytes;
    }

    /** The process's budget, from {@code sessionj.tcp.unsentBytes} the first time it is needed. */
    public static UnsentBytes shared() {
        UnsentBytes budget = shared;
        if (budget == null) {
            synchronized (UnsentBytes.class) {
                budget = shared;
                if (budget == null) {
                    budget = new UnsentBytes(SystemSettings.system().integer("tcp.unsentBytes",
                            (int) Math.min(Integer.MAX_VALUE, UnfinishedFrames.defaultBudget())));
                    shared = budget;
                }
            }
        }
        return budget;
    }

    /** The budget for the bytes of all waiting writers together. */
    public long budgetBytes() {
        return budgetBytes;
    }

    /** Bytes held by waiting writers now. */
    public synchronized long used() {
        return used;
    }

    /**
     * A writer of {@code peer} (for the reason; null when the caller names the connection itself) starts waiting
     * with {@code bytes} unsent. If that takes the total past the
     * budget, the writers that have waited longest are given up first: {@code giveUp} of each is called, on
     * this thread and never under a lock, with the reason, and must fail its connection (which ends its wait).
     * Call {@link Wait#end} when the wait ends, however it ends.
     */
    public Wait await(long bytes, String peer, Consumer<String> giveUp) {
        Wait wait = new Wait(bytes, peer, giveUp);
        List<Wait> givenUp = null;
        synchronized (this) {
            Iterator<Wait> oldest = waiting.iterator();
            while (used + bytes > budgetBytes && oldest.hasNext()) {
                Wait other = oldest.next();
                oldest.remove();
                used -= other.bytes;
                other.ended = true;
                if (givenUp == null) {
                    givenUp = new ArrayList<>();
                }
                givenUp.add(other);
            }
            used += bytes;
            waiting.add(wait);
        }
        if (givenUp != null) {
            long now = System.nanoTime();
            for (Wait other : givenUp) {
                other.giveUp.accept("gave up writing to a peer that takes nothing: this side held " + other.bytes
                        + " bytes for it unsent for " + TimeUnit.NANOSECONDS.toMillis(now - other.since) + " ms, the"
                        + " longest of the writers waiting for their peers when another needed room within the"
                        + " process's budget of " + budgetBytes + " bytes for them (sessionj.tcp.unsentBytes; "
                        + "sessionj.sendTimeout bounds one writer's wait)" + (other.peer == null ? "" : " (" + other.peer + ")"));
            }
        }
        return wait;
    }

    /** One writer's wait for its peer. */
    public final class Wait {
        private final long bytes;
        private final String peer;
        private final Consumer<String> giveUp;
        private final long since = System.nanoTime();
        /** Guarded by the budget's lock: ended or given up (its bytes no longer counted). */
        private boolean ended;

        private Wait(long bytes, String peer, Consumer<String> giveUp) {
            this.bytes = bytes;
            this.peer = peer;
            this.giveUp = giveUp;
        }

        /** The wait ended (the peer took the bytes, or the connection ended): its bytes are no longer counted. */
        public void end() {
            synchronized (UnsentBytes.this) {
                if (!ended) {
                    ended = true;
                    used -= bytes;
                    waiting.remove(this);
                }
            }
        }
    }
}
