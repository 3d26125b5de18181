package org.sessionj.bench.ompi;

import mpi.MPI;
import org.sessionj.bench.mpi.PiEstimate;
import org.sessionj.bench.mpi.PiSampler;
import org.sessionj.bench.mpi.RankMain;
import org.sessionj.bench.mpi.RunReport;

/**
 * Monte Carlo π on Open MPI's Java bindings: the same program as the MPJ Express baseline
 * ({@code PiMpj}) and the same work and seeds as {@code ./sj demo pi} ({@link PiSampler}) — rank 0 sends
 * each worker its number of points, sums the hits and checks the estimate ({@link PiEstimate}: within 5σ
 * of π). The messages are one {@code int}, so they are plain {@code int[1]} arrays (the bindings' copy of
 * 4 bytes costs nothing; a direct buffer would buy nothing). Args: points per worker.
 */
public final class PiOmpi {
    public static void main(String[] args) {
        RankMain.run(args, PiOmpi::run);
    }

    static void run(String[] args) throws Exception {
        String[] app = MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int trials = Integer.parseInt(app[app.length - 1]);
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        int[] message = new int[1];
        if (rank == 0) {
            message[0] = trials;
            for (int w = 1; w < size; w++) {
                MPI.COMM_WORLD.send(message, 1, MPI.INT, w, 0);
            }
            long hits = 0;
            for (int w = 1; w < size; w++) {
                MPI.COMM_WORLD.recv(message, 1, MPI.INT, w, 1);
                hits += message[0];
            }
            double elapsed = RunReport.millisSince(start);
            RunReport.print(new PiEstimate(hits, (long) trials * (size - 1)).verdict(), elapsed);
        } else {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, 0, 0);
            message[0] = PiSampler.hits(rank - 1, message[0]);
            MPI.COMM_WORLD.send(message, 1, MPI.INT, 0, 1);
        }
        MPI.Finalize();
    }
}
