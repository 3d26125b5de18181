package org.sessionj.examples.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.api.Session;

/**
 * Address exchange as a session protocol ({@link RankToRendezvous}): rank 0 runs the service, every
 * other rank registers its endpoint and receives the full table once all have registered.
 *
 * <p>The service keeps every registration session open until the table is complete. Sockets are
 * linear locals, so it holds them one per stack frame: each frame accepts one rank, recurses for
 * the rest and answers its rank on the way back. A bad registration (a rank out of range, twice, or
 * with another idea of the size) is answered at once with the reason, and every other rank then
 * gets the same reason instead of the table.
 */
public final class Rendezvous {

    private Rendezvous() {
    }

    /**
     * Serves registrations on {@code server} until all {@code size} ranks are known ({@code self}
     * is rank 0's own endpoint) and returns the table.
     *
     * @throws RendezvousException when a rank registers wrongly or not all register within {@code timeout}
     */
    public static EndpointTable serve(@Session(protocol = RendezvousToRank.class) SJServerSocket server, Endpoint self, int size, Duration timeout) {
        if (self.rank() != 0) {
            throw new IllegalArgumentException("expected the rendezvous on rank 0 but found rank " + self.rank());
        }
        Endpoint[] table = new Endpoint[size];
        table[0] = self;
        long deadline = System.nanoTime() + timeout.toNanos();
        String failure = gather(server, table, size - 1, deadline, timeout);
        if (failure != null) {
            throw new RendezvousException(failure);
        }
        return new EndpointTable(table);
    }

    /** Accepts {@code missing} more ranks; returns null when the table is complete, else the reason it is not. */
    private static String gather(@Session(protocol = RendezvousToRank.class) SJServerSocket server, Endpoint[] table, int missing, long deadline, Duration timeout) {
        if (missing == 0) {
            return null;
        }
        long left = Math.max(1, deadline - System.nanoTime());
        try {
            try (SJSocket rank = server.accept(Duration.ofNanos(left))) {
                // Within the same wait (H21-4): a connection that never sent its registration held the
                // rendezvous past its timeout for as long as it stayed open (its heartbeats kept it up).
                Registration registration = rank.receive(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                String failure = problem(registration, table);
                if (failure == null) {
                    table[registration.rank()] = new Endpoint(registration.rank(), registration.host(),
                            registration.ports().clone());
                    failure = gather(server, table, missing - 1, deadline, timeout);
                }
                if (failure == null) {
                    rank.outbranch("TABLE");
                    rank.send(table);
                } else {
                    rank.outbranch("REJECTED");
                    rank.send(failure);
                }
                return failure;
            }
        } catch (SJTimeoutException e) {
            return "only " + (table.length - missing) + " of " + table.length + " ranks registered within "
                    + timeout.toSeconds() + " s (missing: " + missingRanks(table) + ")";
        }
    }

    /** Why {@code registration} cannot join {@code table}, or null if it can. */
    static String problem(Registration registration, Endpoint[] table) {
        int size = table.length;
        if (registration.size() != size) {
            return "rank " + registration.rank() + " expects " + registration.size()
                    + " ranks but the rendezvous expects " + size;
        }
        if (registration.rank() < 1 || registration.rank() >= size) {
            return "expected a rank between 1 and " + (size - 1) + " but found " + registration.rank()
                    + " (registered from " + registration.host() + ")";
        }
        Endpoint earlier = table[registration.rank()];
        if (earlier != null) {
            return "rank " + registration.rank() + " registered twice: first from " + earlier.host() + " "
                    + Arrays.toString(earlier.ports()) + ", again from " + registration.host() + " "
                    + Arrays.toString(registration.ports());
        }
        if (registration.host() == null || registration.host().isBlank() || registration.ports() == null) {
            return "rank " + registration.rank() + " registered without a host or ports";
        }
        return null;
    }

    private static List<Integer> missingRanks(Endpoint[] table) {
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < table.length; r++) {
            if (table[r] == null) {
                missing.add(r);
            }
        }
        return missing;
    }

    /**
     * Registers with the rendezvous at {@code service} and waits for the table. Connection attempts
     * are repeated until {@code timeout} (rank 0 may not listen yet when ranks start independently,
     * as under srun); a rejection is final, and so is a rendezvous that took the connection but did not
     * complete the session within the runtime's initiation timeout: trying again would start the whole
     * set-up over, in a JVM on a busy machine where the first one already took too long (every attempt
     * then timed out in turn, silently, until rank 0 gave up: "only 1 of 3 ranks registered").
     *
     * @throws RendezvousException when the rendezvous rejects the run, cannot be reached in time or does
     *     not complete the session in time
     */
    public static EndpointTable register(@Session(protocol = RankToRendezvous.class) SJService service, Registration registration, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pauseMillis = 10;
        while (true) {
            boolean connected = false;
            Endpoint[] table = null;
            String rejection = null;
            try (SJSocket rendezvous = service.request()) {
                connected = true;
                rendezvous.send(registration);
                switch (rendezvous.inbranch()) {
                    case "TABLE" -> table = rendezvous.receive();
                    case "REJECTED" -> rejection = rendezvous.receive();
                }
            } catch (SJIncompatibleSessionException e) {
                throw e;
            } catch (SJTimeoutException e) {
                throw new RendezvousException("rank " + registration.rank() + " reached the rendezvous at "
                        + service.host() + ":" + service.port() + " but the session was not set up in time ("
                        + e.getMessage() + "); on a busy machine a fresh JVM's first session can take longer:"
                        + " raise sessionj.initiationTimeout");
            } catch (SJIOException e) {
                if (connected || System.nanoTime() - deadline > 0) {
                    throw new RendezvousException("rank " + registration.rank() + " cannot register with the rendezvous at "
                            + service.host() + ":" + service.port() + ": " + e.getMessage());
                }
                sleep(pauseMillis);
                pauseMillis = Math.min(200, pauseMillis * 2);
                continue;
            }
            if (rejection != null) {
                throw new RendezvousException("rendezvous rejected the run: " + rejection);
            }
            return new EndpointTable(table);
        }
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RendezvousException("interrupted while waiting for the rendezvous");
        }
    }
}
