package org.sessionj.bench.ompi;

import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;

/**
 * Jacobi on Open MPI's Java bindings with three ranks (north, central "master", south): the same
 * grid, sweep, convergence test, row split and bitwise check against a sequential solve as the MPJ
 * Express baseline ({@code JacobiMpj}) and {@code ./sj demo jacobi}; ghost rows with sendRecv, the
 * convergence data with allReduce(MAX), the rows gathered at rank 0.
 *
 * <p>Buffers: the messages of every iteration (ghost rows, convergence data) go through direct
 * {@link DoubleBuffer}s from {@link MPI#newDoubleBuffer}, which the bindings hand to MPI without a copy
 * (for a Java array they copy it into a native buffer and back). A ghost row is put into / taken out of
 * its buffer with one bulk copy, as the MPJ version copies it into / out of its message array. The
 * one-off gather at the end uses arrays. Args: size, most iterations.
 */
public final class JacobiOmpi {
    static final double TOLERANCE = 1e-5;

    public static void main(String[] args) throws Exception {
        String[] app = MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() != 3) {
            throw new IllegalArgumentException("expected 3 ranks but found " + MPI.COMM_WORLD.getSize());
        }
        int size = Integer.parseInt(app[app.length - 2]);
        int max = Integer.parseInt(app[app.length - 1]);
        int part = rank == 1 ? 0 : rank == 0 ? 1 : 2;          // rank 1 north, rank 0 central, rank 2 south
        int above = part == 0 ? -1 : part == 1 ? 1 : 0;         // rank holding the rows above
        int below = part == 0 ? 0 : part == 1 ? 2 : -1;
        Grid g = new Grid(size, part, 3);
        DoubleBuffer out = MPI.newDoubleBuffer(size);
        DoubleBuffer in = MPI.newDoubleBuffer(size);
        DoubleBuffer conv = MPI.newDoubleBuffer(2);
        DoubleBuffer all = MPI.newDoubleBuffer(2);
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        double diff = 1.0;
        double valmx = 1.0;
        int iterations = 1;
        while (diff / valmx >= TOLERANCE && iterations <= max) {
            g.sweep();
            if (above >= 0) {
                out.put(0, g.newu[1], 1, size);
                MPI.COMM_WORLD.sendRecv(out, size, MPI.DOUBLE, above, 0, in, size, MPI.DOUBLE, above, 0);
                in.get(0, g.newu[0], 1, size);
            }
            if (below >= 0) {
                out.put(0, g.newu[g.rows], 1, size);
                MPI.COMM_WORLD.sendRecv(out, size, MPI.DOUBLE, below, 0, in, size, MPI.DOUBLE, below, 0);
                in.get(0, g.newu[g.rows + 1], 1, size);
            }
            g.swap();
            conv.put(0, g.diff).put(1, g.valmx);
            MPI.COMM_WORLD.allReduce(conv, all, 2, MPI.DOUBLE, MPI.MAX);
            diff = all.get(0);
            valmx = all.get(1);
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
            MPI.COMM_WORLD.recv(north, north.length, MPI.DOUBLE, 1, 2);
            MPI.COMM_WORLD.recv(south, south.length, MPI.DOUBLE, 2, 2);
            double elapsed = (System.nanoTime() - start) / 1e6;
            double[] result = new double[size * (size + 2)];
            System.arraycopy(north, 0, result, 0, north.length);
            System.arraycopy(mine, 0, result, north.length, mine.length);
            System.arraycopy(south, 0, result, north.length + mine.length, south.length);
            Sequential seq = Sequential.solve(size, max);
            boolean same = Arrays.equals(result, seq.grid()) && seq.iterations() == iterations;
            System.out.println((iterations - 1) + " iterations; " + (same ? "verified: bitwise equal to a sequential solve"
                    : "VERIFICATION FAILED"));
            System.out.printf(Locale.ROOT, "run %.1f ms%n", elapsed);
        } else {
            MPI.COMM_WORLD.send(mine, mine.length, MPI.DOUBLE, 0, 2);
        }
        MPI.Finalize();
    }

    /** The whole grid solved by one {@link Grid}, with the same convergence test; the reference. */
    record Sequential(double[] grid, int iterations) {
        static Sequential solve(int size, int max) {
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
            return new Sequential(seq.interior(), it);
        }
    }

    /** The same block of rows and sweep as sj-examples' Slab (and JacobiMpj's Grid). */
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
