package org.sessionj.transport.http.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
    }

    private final Supplier<String> server;
    private final int limit;
    private final long stallNanos;
    private final Set<Head> open = ConcurrentHashMap.newKeySet();
    /** From the last look that found none: no connection can have stalled before this time. */
    private volatile long noneBefore;
    private final AtomicLong dropped = new AtomicLong();

    /** For {@code server} (named in the log), whose limit is {@code limit} connections and request deadline {@code requestMillis}. */
    StalledHeads(Supplier<String> server, int limit, long requestMillis) {
        this.server = server;
        this.limit = limit;
        this.stallNanos = Math.max(1, Math.min(STALL_NANOS, TimeUnit.MILLISECONDS.toNanos(requestMillis) / 2));
        this.noneBefore = System.nanoTime();
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
        long now = System.nanoTime();
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
}
