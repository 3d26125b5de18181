package org.sessionj.transport.http.internal;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.sessionj.transport.netty.internal.EventLoops;

/**
 * The halves a tunnel server knows, by token, with a sweep once a second that forgets those that are
 * over and declares vanished those whose client has made no request for the vanish time.
 */
public final class Halves implements AutoCloseable {
    private final Map<String, Half> byToken = new ConcurrentHashMap<>();
    private final ScheduledFuture<?> sweeper;
    private final long vanishMillis;

    /** A table whose sweep also runs {@code sweepAlso} (the relay's pairing deadlines). */
    public Halves(long vanishMillis, Consumer<Long> sweepAlso) {
        this.vanishMillis = vanishMillis;
        this.sweeper = EventLoops.shared(true).group().next().scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            sweep(now);
            sweepAlso.accept(now);
        }, 1, 1, TimeUnit.SECONDS);
    }

    /** Registers {@code half}. */
    public void add(Half half) {
        byToken.put(half.token(), half);
    }

    /** The half with {@code token}, or null. */
    public Half get(String token) {
        return byToken.get(token);
    }

    /** Every half known (a live view, for a scan). */
    Iterable<Half> all() {
        return byToken.values();
    }

    /** Forgets {@code half}; false if it was not known (forgotten already). */
    boolean remove(Half half) {
        return byToken.remove(half.token(), half);
    }

    /** How many halves are known. */
    public int size() {
        return byToken.size();
    }

    private void sweep(long now) {
        for (Iterator<Half> it = byToken.values().iterator(); it.hasNext();) {
            Half half = it.next();
            // Each stream is released by its reader's end (closeReader), so the peer half still
            // reads what a vanished client sent before it went.
            if (half.isDone() && half.idleFor(now, 0)) {
                it.remove();
            } else if (half.idleFor(now, vanishMillis)) {
                half.vanish("the peer vanished: no request from it for " + vanishMillis + " ms");
                it.remove();
            }
        }
    }

    /** Stops sweeping and fails every half. */
    @Override
    public void close() {
        sweeper.cancel(false);
        for (Half half : byToken.values()) {
            half.vanish("the server closed");
            half.dispose();
        }
        byToken.clear();
    }
}
