package org.sessionj.bench.mpj;

import mpi.MPI;

/**
 * Jacobi in MPJ Express with three ranks as in the papers (north, central "master", south): the same
 * grid, sweep, convergence test and row split as {@code ./sj demo jacobi}; ghost rows with Sendrecv,
 * the convergence data with Allreduce(MAX), the rows gathered at rank 0 and checked bitwise against a
 * sequential solve. Args: size, most iterations.
 */
public final class JacobiMpj {
    static final double TOLERANCE = 1e-5;

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
        if (MPI.COMM_WORLD.Size() != 3) {
            throw new IllegalArgumentException("expected 3 ranks but found " + MPI.COMM_WORLD.Size());
        }
        int size = Integer.parseInt(app[app.length - 2]);
        int max = Integer.parseInt(app[app.length - 1]);
        int part = rank == 1 ? 0 : rank == 0 ? 1 : 2;          // rank 1 north, rank 0 central, rank 2 south
        int above = part == 0 ? -1 : part == 1 ? 1 : 0;         // rank holding the rows above
        int below = part == 0 ? 0 : part == 1 ? 2 : -1;
        Grid g = new Grid(size, part, 3);
        MPI.COMM_WORLD.Barrier();
        long start = System.nanoTime();
        double diff = 1.0;
        double valmx = 1.0;
        int iterations = 1;
        double[] out = new double[size];
        double[] in = new double[size];
        double[] conv = new double[2];
        double[] all = new double[2];
        while (diff / valmx >= TOLERANCE && iterations <= max) {
            g.sweep();
            if (above >= 0) {
                System.arraycopy(g.newu[1], 1, out, 0, size);
                MPI.COMM_WORLD.Sendrecv(out, 0, size, MPI.DOUBLE, above, 0, in, 0, size, MPI.DOUBLE, above, 0);
                System.arraycopy(in, 0, g.newu[0], 1, size);
            }
            if (below >= 0) {
                System.arraycopy(g.newu[g.rows], 1, out, 0, size);
                MPI.COMM_WORLD.Sendrecv(out, 0, size, MPI.DOUBLE, below, 0, in, 0, size, MPI.DOUBLE, below, 0);
                System.arraycopy(in, 0, g.newu[g.rows + 1], 1, size);
            }
            g.swap();
            conv[0] = g.diff;
            conv[1] = g.valmx;
            MPI.COMM_WORLD.Allreduce(conv, 0, all, 0, 2, MPI.DOUBLE, MPI.MAX);
            diff = all[0];
            valmx = all[1];
            if (iterations == 1) {
                diff = 1.0;
                valmx = 1.0;
            }
            iterations++;
        }
        double[] mine = g.interior();
        if (rank == 0) {
            double[] north = new double[Grid.rowCount(size, 0, 3) * (size + 2)];
            double[] south = new double[Grid.rowCount(size, 2, 3) * (size + 2)];
            MPI.COMM_WORLD.Recv(north, 0, north.length, MPI.DOUBLE, 1, 2);
            MPI.COMM_WORLD.Recv(south, 0, south.length, MPI.DOUBLE, 2, 2);
            double elapsed = (System.nanoTime() - start) / 1e6;
            double[] result = new double[size * (size + 2)];
            System.arraycopy(north, 0, result, 0, north.length);
            System.arraycopy(mine, 0, result, north.length, mine.length);
            System.arraycopy(south, 0, result, north.length + mine.length, south.length);
            Grid seq = new Grid(size, 0, 1);
            double d = 1.0;
            double v = 1.0;
            int it = 1;
            while (d / v >= TOLERANCE && it <= max) {
                seq.sweep();
                d = seq.diff;
                v = seq.valmx;
                seq.swap();
                if (it == 1) {
                    d = 1.0;
                    v = 1.0;
                }
                it++;
            }
            boolean same = java.util.Arrays.equals(result, seq.interior()) && it == iterations;
            System.out.println((iterations - 1) + " iterations; " + (same ? "verified: bitwise equal to a sequential solve"
                    : "VERIFICATION FAILED"));
            System.out.printf("run %.1f ms%n", elapsed);
        } else {
            MPI.COMM_WORLD.Send(mine, 0, mine.length, MPI.DOUBLE, 0, 2);
        }
        MPI.Finalize();
    }

    /** The same block of rows and sweep as sj-examples' Slab. */
    static final class Grid {
        final int size;
        final int rows;
        double[][] u;
        double[][] newu;
        double diff;
        double valmx;

        Grid(int size, int part, int parts) {
            this.size = size;
            this.rows = rowCount(size, part, parts);
            int first = 1 + part * (size / parts);
            u = new double[rows + 2][size + 2];
            newu = new double[rows + 2][size + 2];
            for (int i = 0; i < rows + 2; i++) {
                int row = first - 1 + i;
                for (int j = 0; j < size + 2; j++) {
                    if (row == 0 || j == 0 || row == size + 1 || j == size + 1) {
                        u[i][j] = row == 0 ? 1.0 : (j == 0 && row <= size) ? 0.5 : 0.0;
                        newu[i][j] = u[i][j];
                    }
                }
            }
        }

        static int rowCount(int size, int part, int parts) {
            return part == parts - 1 ? size - part * (size / parts) : size / parts;
        }

        void sweep() {
            double d = 0.0;
            double v = 0.0;
            for (int i = 1; i < rows + 1; i++) {
                double[] above = u[i - 1];
                double[] row = u[i];
                double[] below = u[i + 1];
                double[] next = newu[i];
                for (int j = 1; j < size + 1; j++) {
                    next[j] = (above[j] + below[j] + row[j - 1] + row[j + 1]) / 4.0;
                    d = Math.max(d, Math.abs(next[j] - row[j]));
                    v = Math.max(v, Math.abs(next[j]));
                }
            }
            diff = d;
            valmx = v;
        }

        void swap() {
            double[][] t = u;
            u = newu;
            newu = t;
        }

        double[] interior() {
            double[] flat = new double[rows * (size + 2)];
            for (int i = 0; i < rows; i++) {
                System.arraycopy(u[i + 1], 0, flat, i * (size + 2), size + 2);
            }
            return flat;
        }
    }
}
