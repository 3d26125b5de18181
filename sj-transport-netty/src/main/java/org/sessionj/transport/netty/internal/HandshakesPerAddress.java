package org.sessionj.transport.netty.internal;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many connections each source address has in a transport handshake (TLS) at one listening port,
 * with a cap ({@code sessionj.tls.maxHandshakesPerAddress}, 64): without it, one address replaying a
 * captured ClientHello on a thousand connections made the server compute a key exchange and a signature
 * for each, and a real client waited 7–12 s. A connection past its address's cap is closed at once,
 * before any cryptography, while other addresses are served; the pending-handshake limit of the server
 * socket ({@code sessionj.maxPendingHandshakes}) still bounds all of them together.
 *
 * <p>Thread-safe; an address whose count returns to zero is forgotten, so the table holds only the
 * addresses with a handshake running. The HTTP servers count their connections with an unfinished request
 * the same way ({@code sessionj.http.maxUnfinishedPerAddress}).
 */
public final class HandshakesPerAddress {
    /** The default cap: far above what one honest host has in its TLS handshakes at once. */
    static final int DEFAULT_CAP = 64;

    private final int cap;
    private final ConcurrentHashMap<InetAddress, Integer> counts = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();

    HandshakesPerAddress(int cap) {
        this(cap, "sessionj.tls.maxHandshakesPerAddress");
    }

    /** A cap of {@code cap} per address, set by {@code setting} (for the error when it is not positive). */
    public HandshakesPerAddress(int cap, String setting) {
        if (cap <= 0) {
            throw new IllegalArgumentException(setting + " must be positive, found " + cap);
        }
        this.cap = cap;
    }

    /** The cap. */
    public int cap() {
        return cap;
    }

    /** Counts a connection from {@code address} into its handshake; false (and counted as refused) at the cap. */
    public boolean tryEnter(InetAddress address) {
        boolean[] entered = {false};
        counts.compute(address, (a, n) -> {
            int now = n == null ? 0 : n;
            if (now >= cap) {
                return n;
            }
            entered[0] = true;
            return now + 1;
        });
        if (!entered[0]) {
            refused.incrementAndGet();
        }
        return entered[0];
    }

    /** A connection from {@code address} left its handshake (succeeded, failed or closed); once per {@link #tryEnter} that returned true. */
    public void leave(InetAddress address) {
        counts.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
    }

    /** Connections from {@code address} in their handshake now. */
    public int held(InetAddress address) {
        return counts.getOrDefault(address, 0);
    }

    /** Addresses with a connection in its handshake now. */
    int addresses() {
        return counts.size();
    }

    /** Connections refused at their address's cap so far. */
    public long refused() {
        return refused.get();
    }
}
