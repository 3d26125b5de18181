package org.sessionj.bench;

/**
 * The floor under an in-JVM session's set-up (issue 15): the thread hand-offs a whole session
 * ({@code cbegin.!<int>.?(int)}: request, one int each way, close) cannot do without, with nothing
 * else. A requester makes a connection (two fresh channels), hands it to its accepter through the
 * accept channel, sends an int and waits for the answer; the accepter takes the connection, takes the
 * int and answers. Three hand-offs between the two threads and two small allocations per session, the
 * same wait strategy as the in-JVM transport ({@link ParkingSpscChannel}): what is left of a session
 * when negotiation, type check, framing, the monitor and closing cost nothing.
 */
final class BareSetup {
    /** One direction each way. */
    private record Pair(ParkingSpscChannel toAccepter, ParkingSpscChannel toRequester) {
    }

    private final ParkingSpscChannel accepts = new ParkingSpscChannel(1024);

    /** Requester: one whole bare session; the accepter's answer. */
    int session() {
        Pair pair = new Pair(new ParkingSpscChannel(4), new ParkingSpscChannel(4));
        accepts.offer(pair);
        pair.toAccepter().offer(1);
        return (Integer) pair.toRequester().take();
    }

    /** Starts the accepter on a daemon thread ({@code virtual}: a virtual one), serving for the life of the JVM. */
    Thread startAccepter(String name, boolean virtual) {
        Runnable serve = () -> {
            while (true) {
                Pair pair = (Pair) accepts.take();
                int value = (Integer) pair.toAccepter().take();
                pair.toRequester().offer(value + 1);
            }
        };
        return virtual ? Thread.ofVirtual().name(name).start(serve) : Thread.ofPlatform().daemon().name(name).start(serve);
    }
}
