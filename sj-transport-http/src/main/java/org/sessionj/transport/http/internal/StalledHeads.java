package org.sessionj.transport.http.internal;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The open connections of one HTTP server, for what it does at its connection limit: a new connection drops the
 * connection whose request has been unfinished longest, if that has lasted the stall time, instead of being refused
 * itself (as nginx reuses the oldest connections and gRPC servers drop stalled streams). The per-address cap
 * ({@code sessionj.http.maxUnfinishedPerAddress}) bounds one address; this bounds many addresses together: before,
 * slowloris connections from many addresses (loopback alone has all of 127/8) held all 4,096 connections of the
 * relay for its 30 s request deadline, and every honest client was refused meanwhile (hostile H4).
 *
 * <p>A request is unfinished from the connection's accept, or a later request's first byte, until it has arrived
 * whole; a WebSocket, once upgraded, and a connection between requests (a kept-alive one, a held poll answered) are
 * never dropped this way. A real client's request arrives in one segment, so it is unfinished for microseconds; one
 * unfinished for the stall time (5 s, or half the request deadline when shorter) is stalled. One connection is
 * dropped per newcomer at the limit, and only then: the usual path pays a volatile write per request.
 *
 * <p>When none has stalled, a newcomer at the limit evicts idle connections instead ({@link #evictIdle}): kept-alive
 * connections between requests, which carry nothing at that moment (no request arriving, none held, not a
 * WebSocket), from the source address that has the most of them, the longest idle first. Before, one address that
 * held 4,096 kept-alive connections to the relay with one cheap request each per 25 s (so the idle timeout never
 * fired) locked every other client out: none of its connections was ever unfinished long enough to count as
 * stalled (hostile18 H1). The address holding most pays first, so a flood evicts its own connections, and an honest
 * client's (a held poll, a WebSocket) is never idle this way; gRPC and nginx servers likewise close idle
 * keep-alive connections first under connection pressure.
 */
final class StalledHeads {
    private static final System.Logger LOG = System.getLogger(StalledHeads.class.getName());
    /** How long a request must have been unfinished before a newcomer at the limit may drop its connection. */
    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** One open connection, as this sees it. */
    interface Head {
        /** Since when ({@link System#nanoTime}) its request has been unfinished; 0: it has none. */
        long unfinishedSince();

        /** Closes it. */
        void drop();

        /** Where it comes from, for the log. */
        String peer();

        /**
         * Since when ({@link StalledHeads#now}) it has been idle between requests, carrying nothing (no request
         * arriving or held, not a WebSocket); 0: it is not idle.
         */
        long idleSince();

        /** The source address it comes from (null: not an IP connection: never evicted as idle). */
        InetAddress from();
    }

    /** The most idle connections one look evicts (a flood of newcomers then scans the table once per this many). */
    static final int MAX_EVICT_BATCH = 64;

    private final Supplier<String> server;
    private final int limit;
    private final long stallNanos;
    private final Set<Head> open = ConcurrentHashMap.newKeySet();
    /** From the last look that found none: no connection can have stalled before this time. */
    private volatile long noneBefore;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    /** What the stall and idle times are read from ({@code System.nanoTime()} but in tests, which drive it). */
    private final LongSupplier clock;

    /** For {@code server} (named in the log), whose limit is {@code limit} connections and request deadline {@code requestMillis}. */
    StalledHeads(Supplier<String> server, int limit, long requestMillis) {
        this(server, limit, requestMillis, System::nanoTime);
    }

    /** As {@link #StalledHeads(Supplier, int, long)}, with the times read from {@code clock}. */
    StalledHeads(Supplier<String> server, int limit, long requestMillis, LongSupplier clock) {
        this.server = server;
        this.limit = limit;
        this.clock = clock;
        this.stallNanos = Math.max(1, Math.min(STALL_NANOS, TimeUnit.MILLISECONDS.toNanos(requestMillis) / 2));
        this.noneBefore = clock.getAsLong();
    }

    /** The time now, as this reads it (the connections' {@link Head#unfinishedSince} and {@link Head#idleSince} too). */
    long now() {
        return clock.getAsLong();
    }

    /** Connections idle between requests now (for tests). */
    int idle() {
        int n = 0;
        for (Head head : open) {
            n += head.idleSince() != 0 ? 1 : 0;
        }
        return n;
    }

    /** Idle connections evicted so far for newcomers at the limit. */
    long evicted() {
        return evicted.get();
    }

    /** A connection opened. */
    void opened(Head head) {
        open.add(head);
    }

    /** A connection closed. */
    void closed(Head head) {
        open.remove(head);
    }

    /** Connections dropped so far for a newcomer at the limit. */
    long dropped() {
        return dropped.get();
    }

    /**
     * At the limit, for a newcomer: drops the connection whose request has been unfinished longest, if for the stall
     * time; true if one was dropped (the newcomer may stay), false if none has stalled (it must go).
     */
    boolean dropOldestStalled() {
        long now = clock.getAsLong();
        if (now - noneBefore < 0) {
            return false; // the last look found none that could have stalled by now
        }
        while (true) {
            Head oldest = null;
            long oldestSince = 0;
            for (Head head : open) {
                long since = head.unfinishedSince();
                if (since != 0 && (oldest == null || since - oldestSince < 0)) {
                    oldest = head;
                    oldestSince = since;
                }
            }
            if (oldest == null || now - oldestSince < stallNanos) {
                noneBefore = oldest == null ? now + stallNanos : oldestSince + stallNanos;
                return false;
            }
            if (!open.remove(oldest)) {
                continue; // another newcomer dropped it, or it closed: look again
            }
            oldest.drop();
            long n = dropped.incrementAndGet();
            Head gone = oldest;
            long waited = now - oldestSince;
            System.Logger.Level level = (n & (n - 1)) == 0 ? System.Logger.Level.INFO : System.Logger.Level.DEBUG;
            LOG.log(level, () -> "dropped an HTTP connection from " + gone.peer() + " at " + server.get() + ": its request had"
                    + " not arrived whole after " + Duration.ofNanos(waited).withNanos(0) + " (stalled after "
                    + Duration.ofNanos(stallNanos) + ") while the server had its limit of " + limit
                    + " connections open and another connection came (" + n + " dropped so far)");
            return true;
        }
    }

    /**
     * At the limit, for a newcomer, when none has stalled: evicts connections idle between requests from the source
     * address that has the most idle ones, the longest idle first: an eighth of that address's idle connections, at
     * least one and at most {@link #MAX_EVICT_BATCH}, so that a flood of newcomers does not scan the table once
     * each. True if one was evicted (the newcomer may stay), false if no connection is idle (it must go).
     */
    boolean evictIdle() {
        Map<InetAddress, List<Relief.Candidate<Head>>> idle = new HashMap<>();
        List<Relief.Candidate<Head>> most = null;
        for (Head head : open) {
            InetAddress from = head.from();
            long since = head.idleSince();
            if (from == null || since == 0) {
                continue;
            }
            List<Relief.Candidate<Head>> ofAddress = idle.computeIfAbsent(from, a -> new ArrayList<>());
            ofAddress.add(new Relief.Candidate<>(head, -since, 1)); // the times as read: longest idle first
            if (most == null || ofAddress.size() > most.size()) {
                most = ofAddress;
            }
        }
        if (most == null) {
            return false;
        }
        long now = clock.getAsLong();
        int held = most.size();
        int batch = Math.max(1, Math.min(MAX_EVICT_BATCH, held / 8));
        return Relief.highestFirst(most, batch, candidate -> evict(candidate.item(), -candidate.rank(), now, held)) > 0;
    }

    /**
     * Evicts {@code head}, idle since {@code since} at the look, for a newcomer; false if a request came on it since,
     * or it closed, or another newcomer took it.
     */
    private boolean evict(Head head, long since, long now, int held) {
        if (head.idleSince() != since || !open.remove(head)) {
            return false;
        }
        head.drop();
        long n = evicted.incrementAndGet();
        long idleNanos = Math.max(0, now - since);
        if ((n & (n - 1)) == 0) {
            LOG.log(System.Logger.Level.INFO, () -> "closed an idle HTTP connection from " + head.peer() + " at "
                    + server.get() + " (idle for " + Duration.ofNanos(idleNanos).withNanos(0) + "; its address had"
                    + " the most idle connections, " + held + ") while the server had its limit of " + limit
                    + " connections open and another connection came (" + n + " evicted so far)");
        }
        return true;
    }
}
