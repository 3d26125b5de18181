package org.sessionj.examples.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;

/**
 * Plays one rank of a program: open its server sockets, take part in the rendezvous, connect with the
 * other ranks ({@link Connecting}), run, close.
 */
public final class RankRunner {

    private RankRunner() {
    }

    /**
     * What a rank took: the result (rank 0 only) and the time spent in set-up (server sockets and
     * rendezvous), in connecting the ranks ({@link Connecting}: the counterpart of the MPI programs'
     * {@code MPI_Init} and barrier) and in the program itself, timed from the barrier on.
     *
     * @param <R> the program's result
     * @param outcome rank 0's result, null on other ranks
     * @param setupNanos opening the server sockets and the rendezvous
     * @param connectNanos every rank opening a session with every other, and the barrier
     * @param openNanos the program opening its own sessions, up to its {@link RankContext#sessionsOpen} mark
     *     (0 for a program that does not mark it: then its sessions are opened inside {@code runNanos})
     * @param runNanos the program from the mark (or from the barrier) to its result: the timed region
     */
    public record Timed<R>(R outcome, long setupNanos, long connectNanos, long openNanos, long runNanos) {
    }

    /** Rank 0: serves the rendezvous on {@code rendezvous}, connects the ranks and runs the program's rank 0. */
    public static <R extends RankProgram.Outcome> Timed<R> runRankZero(RankProgram<R> program, SJServerSocket rendezvous,
            String host, Duration timeout, Progress progress) {
        long start = System.nanoTime();
        List<SJServerSocket> servers = open(program, 0);
        Phases.mark(0, "servers-open");
        try {
            EndpointTable table = Rendezvous.serve(rendezvous, new Endpoint(0, host, ports(servers)), program.ranks(),
                    timeout);
            long registered = System.nanoTime();
            Phases.mark(0, "registered");
            Connecting.connect(0, servers.get(servers.size() - 1), table, timeout);
            long ready = System.nanoTime();
            Phases.mark(0, "connected");
            ProgramClock clock = new ProgramClock(ready);
            R outcome = program.run(new RankContext(0, program.ranks(), own(servers), table, progress, clock));
            long end = System.nanoTime();
            Phases.mark(0, "run-done");
            return new Timed<>(outcome, registered - start, ready - registered, clock.openingNanos(), end - clock.start());
        } finally {
            servers.forEach(SJServerSocket::close);
        }
    }

    /** Any other rank: registers with the rendezvous at {@code rendezvous}, connects to the others and runs its part. */
    public static void runRank(RankProgram<?> program, int rank, SJService rendezvous, String host, Duration timeout) {
        runRank(program, rank, () -> rendezvous, host, timeout);
    }

    /**
     * As {@link #runRank(RankProgram, int, SJService, String, Duration)}, with the rendezvous asked for
     * only once this rank's server sockets are open (its runtime started meanwhile).
     */
    public static void runRank(RankProgram<?> program, int rank, Supplier<SJService> rendezvous, String host,
            Duration timeout) {
        List<SJServerSocket> servers = open(program, rank);
        Phases.mark(rank, "servers-open");
        try {
            EndpointTable table = Rendezvous.register(rendezvous.get(),
                    new Registration(rank, program.ranks(), host, ports(servers)), timeout);
            Phases.mark(rank, "registered");
            Connecting.connect(rank, servers.get(servers.size() - 1), table, timeout);
            Phases.mark(rank, "connected");
            program.run(new RankContext(rank, program.ranks(), own(servers), table, Progress.NONE));
            Phases.mark(rank, "run-done");
        } finally {
            servers.forEach(SJServerSocket::close);
        }
    }

    /** The program's server sockets: all but the last, which is {@link Connecting}'s. */
    private static List<SJServerSocket> own(List<SJServerSocket> servers) {
        return servers.subList(0, servers.size() - 1);
    }

    private static List<SJServerSocket> open(RankProgram<?> program, int rank) {
        List<SJServerSocket> servers = new ArrayList<>();
        try {
            for (Class<?> protocol : program.accepts(rank)) {
                servers.add(SJServerSocket.create(protocol, 0));
            }
            servers.add(Connecting.open()); // last: its port goes last in the registration
            return servers;
        } catch (RuntimeException e) {
            servers.forEach(SJServerSocket::close);
            throw e;
        }
    }

    private static int[] ports(List<SJServerSocket> servers) {
        return servers.stream().mapToInt(SJServerSocket::port).toArray();
    }
}
