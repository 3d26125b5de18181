package org.sessionj.bench.mpi;

/**
 * The {@code main} of every MPI program of the comparison: runs the rank and ends the JVM with status 1
 * when it fails. A failed rank must not linger: MPJ Express's niodev threads are not daemon threads and
 * would keep its JVM alive (and the launcher waiting) after {@code main} has thrown.
 */
public final class RankMain {
    /** One rank's program; it receives {@code main}'s arguments unchanged (the launcher's ones included). */
    @FunctionalInterface
    public interface Rank {
        void run(String[] args) throws Exception;
    }

    private RankMain() {
    }

    /** Runs {@code rank}; on any failure prints it and calls {@code System.exit(1)}. */
    public static void run(String[] args, Rank rank) {
        try {
            rank.run(args);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
    }
}
