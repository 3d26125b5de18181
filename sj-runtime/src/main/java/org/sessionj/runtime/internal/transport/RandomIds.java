package org.sessionj.runtime.internal.transport;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random 128-bit ids that name things in negotiations (this JVM, a server socket's acceptor group):
 * unique, not secret. {@link UUID#randomUUID()} would draw them from {@code SecureRandom}, whose first
 * use in a JVM loads the security providers, reads {@code java.security} and opens
 * {@code /dev/urandom}: about 40 classes and the largest single share of a fresh JVM's first session
 * (issue 15, docs/benchmarks.md "Cold start"). These ids guard nothing (a peer that presents another
 * JVM's id gets the in-JVM transport offered, which it cannot reach from another process; a wrong
 * acceptor id only sends a requester back through set-up), so {@link ThreadLocalRandom}, seeded per
 * JVM from the clock, is enough. Delegation tokens, which do guard a session, keep {@code randomUUID}.
 */
final class RandomIds {
    private RandomIds() {
    }

    /** A random version-4 UUID from {@link ThreadLocalRandom}. */
    static UUID next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L; // version 4
        long low = random.nextLong() & ~(0xC000L << 48) | 0x8000L << 48; // IETF variant
        return new UUID(high, low);
    }
}
