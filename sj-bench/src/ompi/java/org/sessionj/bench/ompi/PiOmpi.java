package org.sessionj.bench.ompi;

import java.util.Locale;
import java.util.SplittableRandom;
import mpi.MPI;

/**
 * Monte Carlo π on Open MPI's Java bindings: the same program as the MPJ Express baseline
 * ({@code PiMpj}) and the same work and seeds as {@code ./sj demo pi} — rank 0 sends each worker its
 * number of points and sums the hits. Like the demo, and unlike PiMpj, it checks the estimate: within
 * 5σ of π (wrong with probability below 10⁻⁶). The messages are one {@code int}, so they are plain
 * {@code int[1]} arrays (the bindings' copy of 4 bytes costs nothing; a direct buffer would buy nothing).
 * Args: points per worker.
 */
public final class PiOmpi {
    public static void main(String[] args) throws Exception {
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
            double elapsed = (System.nanoTime() - start) / 1e6;
            long all = (long) trials * (size - 1);
            double pi = 4.0 * hits / all;
            double error = Math.abs(pi - Math.PI);
            double tolerance = 5 * 4 * Math.sqrt(Math.PI / 4 * (1 - Math.PI / 4) / all);   // 5 sigma
            System.out.printf(Locale.ROOT, "pi ~ %.6f; %s: error %.2e, 5-sigma tolerance %.2e%n", pi,
                    error <= tolerance ? "verified" : "VERIFICATION FAILED", error, tolerance);
            System.out.printf(Locale.ROOT, "run %.1f ms%n", elapsed);
        } else {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, 0, 0);
            SplittableRandom random = new SplittableRandom(0x5eed_0000L + rank - 1);
            int hits = 0;
            for (int i = 0; i < message[0]; i++) {
                double x = random.nextDouble();
                double y = random.nextDouble();
                if (x * x + y * y <= 1.0) {
                    hits++;
                }
            }
            message[0] = hits;
            MPI.COMM_WORLD.send(message, 1, MPI.INT, 0, 1);
        }
        MPI.Finalize();
    }
}
