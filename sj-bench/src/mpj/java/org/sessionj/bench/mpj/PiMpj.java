package org.sessionj.bench.mpj;

import mpi.MPI;
import org.sessionj.bench.mpi.PiEstimate;
import org.sessionj.bench.mpi.PiSampler;
import org.sessionj.bench.mpi.RankMain;
import org.sessionj.bench.mpi.RunReport;

/**
 * Monte Carlo π in MPJ Express, the papers' baseline: rank 0 sends each worker its number of points
 * and sums the hits (the same work and seeds as {@code ./sj demo pi}, {@link PiSampler}) and checks the
 * estimate as the demo does ({@link PiEstimate}: within 5σ of π). Args: points per worker.
 */
public final class PiMpj {
    public static void main(String[] args) {
        RankMain.run(args, PiMpj::run);
    }

    static void run(String[] args) throws Exception {
        String[] app = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int trials = Integer.parseInt(app[app.length - 1]);
        MPI.COMM_WORLD.Barrier();
        long start = System.nanoTime();
        int[] message = new int[1];
        if (rank == 0) {
            message[0] = trials;
            for (int w = 1; w < size; w++) {
                MPI.COMM_WORLD.Send(message, 0, 1, MPI.INT, w, 0);
            }
            long hits = 0;
            for (int w = 1; w < size; w++) {
                MPI.COMM_WORLD.Recv(message, 0, 1, MPI.INT, w, 1);
                hits += message[0];
            }
            double elapsed = RunReport.millisSince(start);
            RunReport.print(new PiEstimate(hits, (long) trials * (size - 1)).verdict(), elapsed);
        } else {
            MPI.COMM_WORLD.Recv(message, 0, 1, MPI.INT, 0, 0);
            message[0] = PiSampler.hits(rank - 1, message[0]);
            MPI.COMM_WORLD.Send(message, 0, 1, MPI.INT, 0, 1);
        }
        MPI.Finalize();
    }
}
