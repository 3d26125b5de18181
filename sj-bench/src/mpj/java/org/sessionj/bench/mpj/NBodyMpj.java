package org.sessionj.bench.mpj;

import java.util.SplittableRandom;
import mpi.MPI;

/**
 * n-Body in MPJ Express on a ring (the MPI program of 001 §6 in Java): the same bodies, physics and
 * block split as {@code ./sj demo nbody}; particle sets (x, y, z, mass packed in a double[]) travel
 * p−1 times round the ring with Sendrecv; rank 0 gathers the final positions and compares them with a
 * sequential simulation (within 1e-9). Args: bodies (a multiple of the rank count), steps, seed.
 */
public final class NBodyMpj {
    static final double DT = 0.01;
    static final double SOFTENING2 = 1e-4;

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
        int p = MPI.COMM_WORLD.Size();
        int n = Integer.parseInt(app[app.length - 3]);
        int steps = Integer.parseInt(app[app.length - 2]);
        long seed = Long.parseLong(app[app.length - 1]);
        if (n % p != 0) {
            throw new IllegalArgumentException("expected a number of bodies divisible by " + p + " but found " + n);
        }
        int m = n / p;
        double[][] init = initial(n, seed);
        double[] own = new double[4 * m];
        double[] vel = new double[3 * m];
        System.arraycopy(init[0], 4 * rank * m, own, 0, 4 * m);
        System.arraycopy(init[1], 3 * rank * m, vel, 0, 3 * m);
        int right = (rank + 1) % p;
        int left = (rank + p - 1) % p;
        double[] current = new double[4 * m];
        double[] next = new double[4 * m];
        double[] acc = new double[3 * m];
        MPI.COMM_WORLD.Barrier();
        long start = System.nanoTime();
        for (int step = 0; step < steps; step++) {
            System.arraycopy(own, 0, current, 0, 4 * m);
            for (int k = 0; k < p - 1; k++) {
                pull(own, current, acc, m);
                MPI.COMM_WORLD.Sendrecv(current, 0, 4 * m, MPI.DOUBLE, right, k, next, 0, 4 * m, MPI.DOUBLE, left, k);
                double[] t = current;
                current = next;
                next = t;
            }
            pull(own, current, acc, m);
            move(own, vel, acc, m);
        }
        if (rank == 0) {
            double[] all = new double[4 * n];
            System.arraycopy(own, 0, all, 0, 4 * m);
            for (int r = 1; r < p; r++) {
                MPI.COMM_WORLD.Recv(all, 4 * r * m, 4 * m, MPI.DOUBLE, r, 99);
            }
            double elapsed = (System.nanoTime() - start) / 1e6;
            double[] seq = init[0].clone();
            double[] seqVel = init[1].clone();
            double[] seqAcc = new double[3 * n];
            for (int step = 0; step < steps; step++) {
                pull(seq, seq, seqAcc, n);
                move(seq, seqVel, seqAcc, n);
            }
            double worst = 0;
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < 3; c++) {
                    worst = Math.max(worst, Math.abs(all[4 * i + c] - seq[4 * i + c]));
                }
            }
            System.out.println((worst <= 1e-9 ? "verified" : "VERIFICATION FAILED") + ": largest difference " + worst);
            System.out.printf("run %.1f ms%n", elapsed);
        } else {
            MPI.COMM_WORLD.Send(own, 0, 4 * m, MPI.DOUBLE, 0, 99);
        }
        MPI.Finalize();
    }

    /** The initial system, drawn as sj-examples' Bodies.of does: {positions+masses, velocities}. */
    static double[][] initial(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] particles = new double[4 * n];
        double[] velocity = new double[3 * n];
        for (int i = 0; i < n; i++) {
            particles[4 * i] = random.nextDouble(-1, 1);
            particles[4 * i + 1] = random.nextDouble(-1, 1);
            particles[4 * i + 2] = random.nextDouble(-1, 1);
            velocity[3 * i] = random.nextDouble(-0.05, 0.05);
            velocity[3 * i + 1] = random.nextDouble(-0.05, 0.05);
            velocity[3 * i + 2] = random.nextDouble(-0.05, 0.05);
            particles[4 * i + 3] = 1.0 / n;
        }
        return new double[][] {particles, velocity};
    }

    static void pull(double[] own, double[] others, double[] acc, int count) {
        int m = own.length / 4;
        for (int j = 0; j < others.length / 4; j++) {
            double ox = others[4 * j];
            double oy = others[4 * j + 1];
            double oz = others[4 * j + 2];
            double om = others[4 * j + 3];
            for (int i = 0; i < m; i++) {
                double dx = ox - own[4 * i];
                double dy = oy - own[4 * i + 1];
                double dz = oz - own[4 * i + 2];
                double r2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
                double f = om / (r2 * Math.sqrt(r2));
                acc[3 * i] += f * dx;
                acc[3 * i + 1] += f * dy;
                acc[3 * i + 2] += f * dz;
            }
        }
    }

    static void move(double[] own, double[] vel, double[] acc, int count) {
        for (int i = 0; i < own.length / 4; i++) {
            for (int c = 0; c < 3; c++) {
                vel[3 * i + c] += acc[3 * i + c] * DT;
                own[4 * i + c] += vel[3 * i + c] * DT;
                acc[3 * i + c] = 0;
            }
        }
    }
}
