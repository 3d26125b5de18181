package org.sessionj.transport.http.internal;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.transport.netty.internal.HandshakesPerAddress;

/**
 * The connections a direct server opened ({@code POST /sessionj/v1/open}) that their client has not used yet (no
 * request with their token so far), per source address (hostile18 H4). A real client uses its connection at once: it
 * opens one per TCP connection and sends its session request right after the answer. Before, 4 kept-alive
 * connections that only sent opens, pipelined, took all 8,192 halves of the server within 8 s, each for the 15 s
 * vanish time, again and again, and every requester was answered 503.
 *
 * <p>Two rules: one address may hold at most {@code sessionj.http.maxUnusedOpensPerAddress} (64) such connections (the
 * next open is answered 503 with the rule's name, counted and logged); and when the server's tables are full
 * (from many addresses), an open evicts unused connections of the address that holds the most, the oldest first
 * ({@link #evict}), as the server's connection limit evicts idle connections. A connection stops counting at its
 * first request or its end.
 */
final class UnusedOpens {
    private static final System.Logger LOG = System.getLogger(UnusedOpens.class.getName());
    /** The default of {@code sessionj.http.maxUnusedOpensPerAddress}. */
    static final int DEFAULT_PER_ADDRESS = 64;
    /** The most unused connections one look evicts (a flood of opens then scans the table once per this many). */
    static final int MAX_EVICT_BATCH = 64;

    private final HandshakesPerAddress perAddress;
    private final AtomicLong evicted = new AtomicLong();
    private final AtomicLong refusedFull = new AtomicLong();

    /** With the cap of the system property {@code sessionj.http.maxUnusedOpensPerAddress}. */
    UnusedOpens() {
        this(SystemSettings.system().integer("http.maxUnusedOpensPerAddress", DEFAULT_PER_ADDRESS));
    }

    /** With a cap of {@code perAddress}. */
    UnusedOpens(int perAddress) {
        this.perAddress = new HandshakesPerAddress(perAddress, "sessionj.http.maxUnusedOpensPerAddress");
    }

    /** The cap per address. */
    int cap() {
        return perAddress.cap();
    }

    /**
     * Counts an open from {@code from} (null: not an IP connection, not counted); false (counted as refused, and
     * logged the first time and at each power of two) if the address holds its cap of unused connections already.
     * Then either {@link #track} its half, or {@link #leave} if the open fails after all.
     */
    boolean enter(InetAddress from) {
        if (from == null) {
            return true;
        }
        if (!perAddress.tryEnter(from)) {
            long n = perAddress.refused();
            if ((n & (n - 1)) == 0) {
                LOG.log(System.Logger.Level.INFO, () -> "refused an open from " + from.getHostAddress() + ": that"
                        + " address has " + perAddress.cap() + " connections opened and not used yet already"
                        + " (sessionj.http.maxUnusedOpensPerAddress; " + n + " refused so far)");
            }
            return false;
        }
        return true;
    }

    /** An open {@link #enter}ed failed after all: it holds nothing. */
    void leave(InetAddress from) {
        if (from != null) {
            perAddress.leave(from);
        }
    }

    /** The connection {@code half} opened from {@code from} counts as unused until its first request or its end. */
    void track(InetAddress from, Half half) {
        if (from != null) {
            half.countUnused(from, () -> perAddress.leave(from));
        }
    }

    /** Unused connections from {@code from}, now. */
    int unusedFrom(InetAddress from) {
        return perAddress.held(from);
    }

    /** Opens refused so far at their address's cap. */
    long refusedPerAddress() {
        return perAddress.refused();
    }

    /** Unused connections evicted so far for an open when the tables were full. */
    long evicted() {
        return evicted.get();
    }

    /** Counts (and logs, the first time and at each power of two) an open refused because the tables were full. */
    void refusedFull(String server, int halves, int unaccepted) {
        long n = refusedFull.incrementAndGet();
        if ((n & (n - 1)) == 0) {
            LOG.log(System.Logger.Level.INFO, () -> "answered an open at " + server + " 503: " + halves + " connections"
                    + " open and " + unaccepted + " not accepted yet, and none unused to evict (" + n + " so far)");
        }
    }

    /** Opens refused so far because the tables were full and nothing could be evicted. */
    long refusedFull() {
        return refusedFull.get();
    }

    /**
     * The tables are full, for an open: evicts the unused connections of the address that has the most of them, the
     * oldest first: an eighth of that address's, at least one and at most {@link #MAX_EVICT_BATCH}; each vanishes
     * (its server end fails at its first read) and leaves {@code halves}. True if one was evicted.
     */
    boolean evict(Halves halves, String server) {
        Map<InetAddress, List<Half>> unused = new HashMap<>();
        List<Half> most = null;
        for (Half half : halves.all()) {
            InetAddress from = half.unusedFrom();
            if (from == null) {
                continue;
            }
            List<Half> ofAddress = unused.computeIfAbsent(from, a -> new ArrayList<>());
            ofAddress.add(half);
            if (most == null || ofAddress.size() > most.size()) {
                most = ofAddress;
            }
        }
        if (most == null) {
            return false;
        }
        long now = System.nanoTime();
        most.sort((a, b) -> Long.compare(b.ageNanos(now), a.ageNanos(now))); // fixed per half: oldest first
        int held = most.size();
        int batch = Math.max(1, Math.min(MAX_EVICT_BATCH, held / 8));
        int done = 0;
        for (Half half : most) {
            if (done == batch) {
                break;
            }
            if (half.unusedFrom() == null || !halves.remove(half)) {
                continue; // used or gone since
            }
            long age = half.ageNanos(now);
            half.vanish("evicted: opened " + Duration.ofNanos(age).toMillis() + " ms ago and not used, from the address"
                    + " with the most connections opened and not used (" + held + ") while the server's tables were full");
            done++;
            long n = evicted.incrementAndGet();
            if ((n & (n - 1)) == 0) {
                InetAddress from = half.openedFrom();
                LOG.log(System.Logger.Level.INFO, () -> "evicted a connection opened " + Duration.ofNanos(age).toMillis()
                        + " ms ago and not used from " + (from == null ? "?" : from.getHostAddress()) + " at " + server
                        + " (its address had the most such, " + held + ") while the server's tables were full and"
                        + " another open came (" + n + " evicted so far)");
            }
        }
        return done > 0;
    }
}
