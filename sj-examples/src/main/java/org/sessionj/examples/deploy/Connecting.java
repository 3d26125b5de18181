package org.sessionj.examples.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.api.Session;

/**
 * The demos' counterpart of what {@code MPI_Init} and the barrier after it do in the MPI programs they
 * are compared with: once the rendezvous has told every rank where the others listen, every rank opens
 * a session with every other rank ({@link RankToRank}: a round trip over the transport the runtime
 * picks between the two, so that each JVM has set up that transport and run its session code once),
 * then every rank but 0 tells rank 0 it is READY and waits until all are. Rank 0 starts the program's
 * clock after this, as the MPI programs start theirs after {@code MPI_Init} and a barrier; the time it
 * takes is reported apart ("connecting the ranks"), not hidden.
 *
 * <p>The program's own sessions are still opened by the program: MPI programs have their connections
 * from {@code MPI_Init}, an SJ program opens a session where its protocol begins. Connecting first makes
 * them cost what a session set-up costs in a JVM that has opened sessions before, instead of a fresh
 * JVM's first (class loading, interpreted code); a program that can tell when all its sessions are
 * open marks it ({@link RankContext#sessionsOpen}) and is timed from there.
 *
 * <p>Each rank opens one more server socket for this ({@link #open}); its port goes last in the rank's
 * registration, after the program's own.
 */
public final class Connecting {

    private Connecting() {
    }

    /** The server socket the other ranks connect to. */
    public static SJServerSocket open() {
        return SJServerSocket.create(RankFromRank.class, 0);
    }

    /**
     * Connects {@code rank} with every other rank of {@code table} and waits at the barrier; returns
     * once every rank has connected with every other.
     *
     * @param server this rank's server socket from {@link #open}
     * @throws DeploymentException when a rank answers wrongly or not all connect within {@code timeout}
     */
    public static void connect(int rank, @Session(protocol = RankFromRank.class) SJServerSocket server,
            EndpointTable table, Duration timeout) {
        int size = table.size();
        long deadline = System.nanoTime() + timeout.toNanos();
        List<SJService> peers = new ArrayList<>();
        for (int peer = 0; peer < size; peer++) {
            peers.add(peer == rank ? null : service(table, peer));
        }
        // Requests on a thread of their own while this one answers the others' requests: every rank
        // requests every other, so a rank that only requested would wait for one that only requests too.
        CompletableFuture<Void> requested = new CompletableFuture<>();
        Thread.ofVirtual().name("rank-" + rank + "-connecting").start(() -> {
            try {
                for (int peer = 0; peer < size; peer++) {
                    if (peer != rank) {
                        expect(peer, hello(peers.get(peer), rank), table);
                    }
                }
                requested.complete(null);
            } catch (Throwable e) {
                requested.completeExceptionally(e);
            }
        });
        serve(server, new Tally(rank, size, deadline, timeout));
        await(requested, deadline, rank, timeout);
        if (rank != 0) {
            expect(0, ready(peers.get(0), rank), table);
        }
    }

    /** The session with {@code rank}'s connect port (the last port it registered). */
    static SJService service(EndpointTable table, int rank) {
        Endpoint endpoint = table.endpoint(rank);
        return SJService.create(RankToRank.class, endpoint.host(), endpoint.ports()[endpoint.ports().length - 1]);
    }

    private static int hello(@Session(protocol = RankToRank.class) SJService peer, int rank) {
        try (SJSocket socket = peer.request()) {
            socket.send(rank);
            socket.outbranch("CONNECT");
            return socket.receiveInt();
        }
    }

    private static int ready(@Session(protocol = RankToRank.class) SJService zero, int rank) {
        try (SJSocket socket = zero.request()) {
            socket.send(rank);
            socket.outbranch("READY");
            return socket.receiveInt();
        }
    }

    private static void expect(int peer, int answered, EndpointTable table) {
        if (answered != peer) {
            throw new DeploymentException("expected rank " + peer + " at " + table.endpoint(peer).host() + " port "
                    + table.endpoint(peer).ports()[table.endpoint(peer).ports().length - 1] + " but rank " + answered
                    + " answered");
        }
    }

    /**
     * Answers every other rank's CONNECT, and on rank 0 every READY: those are answered only once all
     * have come (the barrier), so each READY session stays open in a stack frame of its own while the
     * rest are served, as the rendezvous does with its registrations.
     */
    private static void serve(@Session(protocol = RankFromRank.class) SJServerSocket server, Tally tally) {
        if (tally.done()) {
            return;
        }
        try (SJSocket peer = server.accept(tally.left())) {
            // Within the same wait (hostile22 H22-3, as H21-4 for the rendezvous): a connection that opened a session
            // and never sent its rank held this rank past its timeout for as long as it stayed open.
            int from = peer.receive(tally.left());
            switch (peer.inbranch()) {
                case "CONNECT" -> {
                    tally.connected(from);
                    peer.send(tally.rank);
                }
                case "READY" -> {
                    tally.ready(from);
                    serve(server, tally);
                    peer.send(tally.rank);
                    return;
                }
            }
        } catch (SJTimeoutException e) {
            throw new DeploymentException(tally.missing(), e);
        }
        serve(server, tally);
    }

    private static void await(CompletableFuture<Void> requested, long deadline, int rank, Duration timeout) {
        try {
            requested.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof DeploymentException d ? d
                    : new DeploymentException("rank " + rank + " could not connect to the other ranks: "
                            + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new DeploymentException("rank " + rank + " could not connect to every other rank within "
                    + timeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeploymentException("rank " + rank + " was interrupted while connecting to the other ranks");
        }
    }

    /** Which ranks have connected to this one, and (rank 0) which are ready. */
    static final class Tally {
        final int rank;
        private final boolean[] connected;
        private final boolean[] ready;
        private int connectsLeft;
        private int readiesLeft;
        private final long deadline;
        private final Duration timeout;

        Tally(int rank, int size, long deadline, Duration timeout) {
            this.rank = rank;
            this.connected = new boolean[size];
            this.ready = new boolean[size];
            this.connectsLeft = size - 1;
            this.readiesLeft = rank == 0 ? size - 1 : 0;
            this.deadline = deadline;
            this.timeout = timeout;
        }

        boolean done() {
            return connectsLeft == 0 && readiesLeft == 0;
        }

        Duration left() {
            return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        }

        void connected(int from) {
            check(from, connected, "connected");
            connected[from] = true;
            connectsLeft--;
        }

        void ready(int from) {
            if (rank != 0) {
                throw new DeploymentException("rank " + from + " said READY to rank " + rank
                        + ": only rank 0 holds the barrier");
            }
            check(from, ready, "said READY");
            ready[from] = true;
            readiesLeft--;
        }

        private void check(int from, boolean[] seen, String what) {
            if (from < 0 || from >= seen.length || from == rank) {
                throw new DeploymentException("rank " + rank + " expected a rank between 0 and " + (seen.length - 1)
                        + " other than itself but found " + from);
            }
            if (seen[from]) {
                throw new DeploymentException("rank " + from + " " + what + " twice to rank " + rank);
            }
        }

        String missing() {
            List<Integer> notConnected = new ArrayList<>();
            List<Integer> notReady = new ArrayList<>();
            for (int r = 0; r < connected.length; r++) {
                if (r != rank && !connected[r]) {
                    notConnected.add(r);
                }
                if (rank == 0 && r != 0 && !ready[r]) {
                    notReady.add(r);
                }
            }
            return "rank " + rank + ": not every rank connected within " + timeout.toSeconds() + " s (not connected: "
                    + notConnected + (rank == 0 ? ", not ready: " + notReady : "") + ")";
        }
    }
}
