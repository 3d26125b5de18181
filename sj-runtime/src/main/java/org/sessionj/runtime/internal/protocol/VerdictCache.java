package org.sessionj.runtime.internal.protocol;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * The verdicts of earlier initiation checks of one protocol, by requester type text (a server meets
 * the same requester types again and again), least recently used first out. Bounded by the memory
 * its keys take, not by their number: requester types are chosen by peers, so a count bound would
 * let a peer fill the heap with a few long ones. The bound, {@code sessionj.verdictCacheBytes}
 * (default 1 MiB per protocol), counts two bytes per character plus a fixed overhead per entry; a
 * type longer than a quarter of it is checked every time and never kept.
 */
final class VerdictCache {
    /** The default bound, in bytes, on the memory of one protocol's cache. */
    static final long DEFAULT_BYTES = 1 << 20;
    /** What an entry costs besides its characters: map node, String and Boolean headers. */
    private static final int ENTRY_OVERHEAD = 96;

    private final long maxBytes;
    private final LinkedHashMap<String, Boolean> verdicts = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    VerdictCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("verdictCacheBytes must not be negative, found " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** A cache bounded by {@code sessionj.verdictCacheBytes}. */
    static VerdictCache fromSettings() {
        return new VerdictCache(SystemSettings.system().integer("verdictCacheBytes", (int) DEFAULT_BYTES));
    }

    private static long cost(String key) {
        return 2L * key.length() + ENTRY_OVERHEAD;
    }

    /** The verdict remembered for {@code requester}, or null. */
    synchronized Boolean get(String requester) {
        return verdicts.get(requester);
    }

    /** Remembers {@code verdict}, evicting the least recently used verdicts until the bound holds. */
    synchronized void put(String requester, boolean verdict) {
        long cost = cost(requester);
        if (cost > maxBytes / 4 || verdicts.containsKey(requester)) {
            return;
        }
        verdicts.put(requester, verdict);
        bytes += cost;
        Iterator<Map.Entry<String, Boolean>> oldest = verdicts.entrySet().iterator();
        while (bytes > maxBytes && oldest.hasNext()) {
            bytes -= cost(oldest.next().getKey());
            oldest.remove();
        }
    }

    /** The memory the cached keys take, as counted against the bound. */
    synchronized long bytes() {
        return bytes;
    }

    /** How many verdicts are cached. */
    synchronized int size() {
        return verdicts.size();
    }
}
