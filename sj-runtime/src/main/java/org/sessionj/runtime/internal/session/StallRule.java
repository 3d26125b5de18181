package org.sessionj.runtime.internal.session;

/**
 * What {@link Handshakes} counts as a stalled handshake at its pending limit, beyond age: the pace a
 * requester must keep while its first frame is not whole, and the order in which one look drops the
 * stalled handshakes it found.
 */
final class StallRule {
    private StallRule() {
    }

    /**
     * The slowest average pace, in bytes a second from its accept, at which a requester whose first frame has
     * not arrived whole still counts as sending its request once it is past the stall time. A real requester
     * sends its whole request (a few hundred bytes to a few KiB) in one write, so at the stall time it has
     * either sent it or stalled; a slowloris that trickles a byte per look was "still sending" by the byte
     * test alone and held its slot for the whole initiation timeout (hostile17 H2). At this pace holding the
     * 4,096 slots of the default limit costs a flooder 4 MiB/s.
     */
    static final long MIN_REQUEST_BYTES_PER_SECOND = 1024;
    /**
     * A handshake found stalled in one look, a session handshake or a transport's: {@code claim} claims it
     * for a drop (false when it ended or was dropped first), {@code drop} closes it; whether its requester
     * sent nothing; since when; the address it came from, or null.
     */
    record Stalled(java.util.function.BooleanSupplier claim, Runnable drop, boolean silent, long started,
            java.net.InetAddress peer) {
    }

    /**
     * The order in which one look drops the stalled handshakes it found: those of the source address with
     * the most of them first (one address that holds many slots cannot push another's handshakes out
     * before its own: hostile17 H5), then the silent ones, then the oldest. A handshake whose transport
     * names no address counts as an address of its own.
     */
    static java.util.Comparator<Stalled> shedOrder(java.util.List<Stalled> stalled) {
        java.util.Map<java.net.InetAddress, Integer> perAddress = new java.util.HashMap<>();
        for (Stalled h : stalled) {
            if (h.peer() != null) {
                perAddress.merge(h.peer(), 1, Integer::sum);
            }
        }
        return (a, b) -> {
            int shareA = a.peer() == null ? 1 : perAddress.get(a.peer());
            int shareB = b.peer() == null ? 1 : perAddress.get(b.peer());
            if (shareA != shareB) {
                return shareA > shareB ? -1 : 1;
            }
            return a.silent() != b.silent() ? (a.silent() ? -1 : 1) : Long.compare(a.started() - b.started(), 0);
        };
    }

    /**
     * Whether a requester whose first frame has not arrived whole sent less than
     * {@link #MIN_REQUEST_BYTES_PER_SECOND} on average since it was accepted, {@code age} ago: it trickles
     * (a byte now and then keeps it "sending"), it does not send a request.
     */
    static boolean belowRequestRate(long bytes, long ageNanos) {
        return bytes < ageNanos / 1_000_000 * MIN_REQUEST_BYTES_PER_SECOND / 1000;
    }
}
