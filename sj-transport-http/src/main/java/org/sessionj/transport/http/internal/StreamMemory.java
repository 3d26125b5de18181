package org.sessionj.transport.http.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * What the direct {@code http}/{@code https} servers of this process hold in stream bytes, over all their
 * connections: uploads their programs have not read yet and answers their clients have not downloaded yet
 * ({@code sessionj.http.bufferedBytes}, by default a quarter of the smaller of the heap and the direct-memory limit).
 * Each stream is bounded on its own ({@code sessionj.http.streamBytes}), but before nothing bounded them together
 * (hostile18 H2: 200 clients that uploaded requests and never downloaded the answers filled a 256 MiB server's
 * direct memory, and an honest session timed out). The streams of every direct server are charged to one
 * {@link Budget}; when it is spent, the connections that hold the most unread bytes are failed, the heaviest first,
 * until it is back under three quarters, each with a message that names the rule (their programs' next receive or
 * send fails with it, their clients' next request is answered 410 with it); a connection holding less than
 * {@link #MIN_FAILED_BYTES} is never failed this way. A connection whose program and client keep up holds little,
 * so the flood's connections go first.
 *
 * <p>The frames a server's end has assembled from the uploads and its program has not read yet are charged too
 * (before the twentieth session they were outside the budget, up to a stream's worth per connection), count as the
 * connection's, and are dropped with it.
 *
 * <p>The usual path pays little: a remote writer's upload already takes from the budget (refused when spent:
 * then this runs, and the upload is tried once more), a local writer's frame already adds to it (the sum it
 * returns says when it is spent), and an assembled frame adds and gives back one atomic count. A look at the
 * connections runs at most once per {@link #MIN_LOOK_NANOS}.
 */
public final class StreamMemory {
    private static final System.Logger LOG = System.getLogger(StreamMemory.class.getName());
    /** A connection holding less is never failed to make room: it is not what filled the memory. */
    static final long MIN_FAILED_BYTES = 64 << 10;
    /** The least time between two looks for the heaviest connections (a spent budget is asked about often). */
    static final long MIN_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static volatile StreamMemory shared;

    private final Budget budget;
    private final Set<Halves> tables = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastLook;
    private final AtomicLong failed = new AtomicLong();

    /** A budget of {@code limit} bytes over the streams of the tables {@linkplain #register registered}. */
    StreamMemory(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("sessionj.http.bufferedBytes must be positive, found " + limit);
        }
        this.budget = new Budget(limit, this::relieve);
        this.lastLook = new AtomicLong(System.nanoTime() - MIN_LOOK_NANOS);
    }

    /** The process's, from {@code sessionj.http.bufferedBytes} the first time it is needed. */
    public static StreamMemory shared() {
        StreamMemory memory = shared;
        if (memory == null) {
            synchronized (StreamMemory.class) {
                memory = shared;
                if (memory == null) {
                    memory = new StreamMemory(SystemSettings.system().integer("http.bufferedBytes",
                            (int) Math.min(Integer.MAX_VALUE, UnfinishedFrames.defaultBudget())));
                    shared = memory;
                }
            }
        }
        return memory;
    }

    /** The budget every stream of a direct server is charged to. */
    Budget budget() {
        return budget;
    }

    /** Looks at {@code halves} when the budget is spent (a direct server's table, while it listens). */
    void register(Halves halves) {
        tables.add(halves);
    }

    /** Stops looking at {@code halves}. */
    void unregister(Halves halves) {
        tables.remove(halves);
    }

    /** Connections failed so far to make room. */
    long failed() {
        return failed.get();
    }

    /**
     * The budget is spent (an append did not fit, or a local writer's frame went past it): fails the connections
     * holding the most unread bytes (at least {@link #MIN_FAILED_BYTES}),
     * the heaviest first, until what they held brings the budget back under three quarters. Not on the usual path: at
     * most one look per {@link #MIN_LOOK_NANOS}, never while one runs. Called with no stream's lock held.
     */
    void relieve() {
        long now = System.nanoTime();
        long last = lastLook.get();
        if (now - last < MIN_LOOK_NANOS || !lastLook.compareAndSet(last, now)) {
            return;
        }
        long used = budget.used();
        long limit = budget.limit();
        long toFree = used - limit / 4 * 3;
        if (toFree <= 0) {
            return; // room was made since (an append that did not fit finds it spent before this)
        }
        List<Relief.Candidate<Held>> heavy = new ArrayList<>();
        for (Halves table : tables) {
            for (Half half : table.all()) {
                if (half.isDone()) {
                    continue;
                }
                long held = half.heldBytes();
                if (held >= MIN_FAILED_BYTES) {
                    heavy.add(new Relief.Candidate<>(new Held(table, half), held, held));
                }
            }
        }
        Relief.highestFirst(heavy, toFree, candidate -> fail(candidate.item(), candidate.frees(), used, limit));
    }

    /** Fails {@code h} (holding {@code held} bytes) to make room; false if it was gone meanwhile. */
    private boolean fail(Held h, long held, long used, long limit) {
        if (!h.table.remove(h.half)) {
            return false;
        }
        String reason = "failed by the server to make room: the stream bytes its direct http servers hold ("
                + used + ") were past sessionj.http.bufferedBytes (" + limit + ") and this connection held the most"
                + " unread (" + held + " bytes: uploads its program had not read, answers its client had not"
                + " downloaded)";
        h.half.failForMemory(reason);
        long n = failed.incrementAndGet();
        if ((n & (n - 1)) == 0) {
            java.net.InetAddress from = h.half.openedFrom();
            LOG.log(System.Logger.Level.WARNING, () -> "an http connection" + (from == null ? "" : " from "
                    + from.getHostAddress()) + " " + reason + " (" + n + " so far)");
        }
        return true;
    }

    /** A connection of a table. */
    private record Held(Halves table, Half half) {
    }
}
