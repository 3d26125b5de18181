package org.sessionj.bench.mpj;

import java.util.SplittableRandom;
import mpi.MPI;

/**
 * Monte Carlo π in MPJ Express, the papers' baseline: rank 0 sends each worker its number of points
 * and sums the hits (the same work and seeds as {@code ./sj demo pi}). Args: points per worker.
 */
public final class PiMpj {
    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // niodev's selector threads would keep a failed rank's JVM alive: end it, nonzero.
            e.printStackTrace();
            System.exit(1);
        }
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
            double pi = 4.0 * hits / ((long) trials * (size - 1));
            System.out.printf("pi ~ %.6f%n", pi);
            System.out.printf("run %.1f ms%n", (System.nanoTime() - start) / 1e6);
        } else {
            MPI.COMM_WORLD.Recv(message, 0, 1, MPI.INT, 0, 0);
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
            MPI.COMM_WORLD.Send(message, 0, 1, MPI.INT, 0, 1);
        }
        MPI.Finalize();
    }
}
