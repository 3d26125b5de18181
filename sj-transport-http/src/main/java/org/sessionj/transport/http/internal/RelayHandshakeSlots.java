package org.sessionj.transport.http.internal;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.sessionj.runtime.spi.HandshakeSlots;

/**
 * The relay's pending-TLS-handshake slots: the relay runs without an SJ runtime, so it has no server
 * socket's {@link HandshakeSlots} and keeps its own. At most {@code limit} connections are in their TLS
 * handshake at once (a new one reads nothing until one ends, and the relay stops accepting meanwhile:
 * {@link org.sessionj.transport.netty.internal.TlsHandshakes}); at the limit the oldest handshake that has
 * not finished within the stall time is dropped for the newcomer (closed, counted, logged), one per look,
 * so a flood of silent TLS connections from many addresses cannot hold every slot for the handler's 10 s
 * again and again while real clients wait. A handshake must succeed within {@code timeoutNanos} of its
 * accept (the relay's request deadline), and one that fails is counted ({@link #failed()}) with what it
 * expected and found.
 */
public final class RelayHandshakeSlots implements HandshakeSlots {
    private static final System.Logger LOG = System.getLogger(RelayHandshakeSlots.class.getName());

    private final int limit;
    private final long timeoutNanos;
    private final long stalledAfterNanos;
    private final ReentrantLock lock = new ReentrantLock();
    /** The slots held, oldest first; guarded by {@link #lock}. */
    private final LinkedHashSet<Held> held = new LinkedHashSet<>();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    /**
     * @param limit connections in their TLS handshake at once, at most
     * @param timeoutNanos how long a TLS handshake may take from its accept
     * @param stalledAfterNanos how old the oldest handshake must be to be dropped for a newcomer at the limit
     */
    public RelayHandshakeSlots(int limit, long timeoutNanos, long stalledAfterNanos) {
        if (limit <= 0) {
            throw new IllegalArgumentException("the relay's pending TLS handshakes must be positive, found " + limit);
        }
        this.limit = limit;
        this.timeoutNanos = timeoutNanos;
        this.stalledAfterNanos = stalledAfterNanos;
    }

    /**
     * The relay's: {@code limit} ({@link org.sessionj.transport.http.relay.RelayLimits#maxPendingTlsHandshakes}), 5 s
     * (or the request deadline when shorter) before a stalled one is dropped, the request deadline.
     */
    public static RelayHandshakeSlots forRelay(int limit, int requestMillis) {
        return new RelayHandshakeSlots(limit, TimeUnit.MILLISECONDS.toNanos(requestMillis),
                Math.min(TimeUnit.SECONDS.toNanos(5), TimeUnit.MILLISECONDS.toNanos(requestMillis)));
    }

    @Override
    public Slot tryEnter(String transport, Runnable drop) {
        Held stalled = null;
        lock.lock();
        try {
            if (held.size() < limit) {
                Held slot = new Held(drop);
                held.add(slot);
                return slot;
            }
            Iterator<Held> oldest = held.iterator();
            Held first = oldest.next();
            if (System.nanoTime() - first.since >= stalledAfterNanos) {
                oldest.remove(); // given back now: its drop closes the channel later, on its loop
                stalled = first;
            }
        } finally {
            lock.unlock();
        }
        if (stalled != null) {
            long n = dropped.incrementAndGet();
            failed.incrementAndGet();
            log(n, "dropped a TLS connection at the relay: it did not finish its TLS handshake within "
                    + Duration.ofNanos(stalledAfterNanos) + " while the relay had its limit of " + limit
                    + " pending TLS handshakes and another connection waited");
            stalled.drop.run();
        }
        return null; // the caller asks again (its own drop, if any, made room)
    }

    @Override
    public long transportHandshakeTimeoutNanos() {
        return timeoutNanos;
    }

    /** TLS handshakes that failed, expired or were dropped at the limit, so far. */
    public long failed() {
        return failed.get();
    }

    /** Connections in their TLS handshake now. */
    public int held() {
        lock.lock();
        try {
            return held.size();
        } finally {
            lock.unlock();
        }
    }

    private static void log(long count, String message) {
        // Once, then at each power of two: a flood must not flood the log.
        System.Logger.Level level = (count & (count - 1)) == 0 ? System.Logger.Level.INFO : System.Logger.Level.DEBUG;
        LOG.log(level, () -> message + " (" + count + " so far)");
    }

    private final class Held implements Slot {
        final long since = System.nanoTime();
        final Runnable drop;

        Held(Runnable drop) {
            this.drop = drop;
        }

        @Override
        public void leave() {
            lock.lock();
            try {
                held.remove(this);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void expired() {
            if (remove()) {
                log(failed.incrementAndGet(), "a TLS handshake at the relay failed: expected it to succeed within "
                        + Duration.ofNanos(timeoutNanos) + " of its accept, found it unfinished");
            }
        }

        @Override
        public void failed(String expectedAndFound) {
            if (remove()) {
                log(failed.incrementAndGet(), "a TLS handshake at the relay failed: " + expectedAndFound);
            }
        }

        /** Gives the slot back; whether it was still held (not left, dropped or counted already). */
        private boolean remove() {
            lock.lock();
            try {
                return held.remove(this);
            } finally {
                lock.unlock();
            }
        }
    }
}
