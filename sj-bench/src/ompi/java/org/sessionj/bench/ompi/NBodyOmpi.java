package org.sessionj.bench.ompi;

import java.nio.DoubleBuffer;
import mpi.MPI;
import org.sessionj.bench.mpi.NBodyPhysics;
import org.sessionj.bench.mpi.NBodyRing;
import org.sessionj.bench.mpi.NBodySystem;
import org.sessionj.bench.mpi.RankMain;
import org.sessionj.bench.mpi.RunReport;

/**
 * n-Body on Open MPI's Java bindings, on a ring (the MPI program of 001 §6 in Java): the same bodies,
 * physics, block split and check (every final position within 1e-9 of a sequential simulation) as the
 * MPJ Express baseline ({@code NBodyMpj}) and {@code ./sj demo nbody} ({@link NBodySystem}, {@link
 * NBodyPhysics}); particle sets (x, y, z, mass) travel p−1 times round the ring with sendRecv; rank 0
 * gathers the final positions.
 *
 * <p>Buffers: the travelling particle sets are direct {@link DoubleBuffer}s from
 * {@link MPI#newDoubleBuffer}, which the bindings hand to MPI without a copy (for a Java array they copy
 * it into a native buffer and back), and the pull reads the visiting set straight from its buffer
 * ({@link #pull}, this program's own copy of {@link NBodyPhysics#pull} for a buffer instead of an array).
 * The one-off gather at the end uses arrays. Args: bodies (a multiple of the rank count), steps, seed.
 */
public final class NBodyOmpi {
    public static void main(String[] args) {
        RankMain.run(args, NBodyOmpi::run);
    }

    static void run(String[] args) throws Exception {
        String[] app = MPI.Init(args);
        NBodyRing ring = NBodyRing.fromArgs(app, MPI.COMM_WORLD.getRank(), MPI.COMM_WORLD.getSize());
        int m = ring.blockSize();
        double[] own = ring.ownParticles();
        double[] vel = ring.ownVelocities();
        DoubleBuffer current = MPI.newDoubleBuffer(4 * m);
        DoubleBuffer next = MPI.newDoubleBuffer(4 * m);
        double[] acc = new double[3 * m];
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        for (int step = 0; step < ring.steps(); step++) {
            current.put(0, own, 0, 4 * m);
            for (int k = 0; k < ring.ranks() - 1; k++) {
                pull(own, current, acc);
                MPI.COMM_WORLD.sendRecv(current, 4 * m, MPI.DOUBLE, ring.right(), k, next, 4 * m, MPI.DOUBLE, ring.left(), k);
                DoubleBuffer t = current;
                current = next;
                next = t;
            }
            pull(own, current, acc);
            NBodyPhysics.move(own, vel, acc);
        }
        if (ring.rank() == 0) {
            double[] all = new double[4 * ring.bodies()];
            System.arraycopy(own, 0, all, 0, 4 * m);
            for (int r = 1; r < ring.ranks(); r++) {
                MPI.COMM_WORLD.recv(MPI.slice(all, 4 * r * m), 4 * m, MPI.DOUBLE, r, 99);
            }
            double elapsed = RunReport.millisSince(start);
            RunReport.print(ring.system().verdict(all, ring.steps()), elapsed);
        } else {
            MPI.COMM_WORLD.send(own, 4 * m, MPI.DOUBLE, 0, 99);
        }
        MPI.Finalize();
    }

    /**
     * {@link NBodyPhysics#pull} with the visiting set read from a direct buffer: sharing the array version
     * would cost a copy of every visiting set out of its buffer, and one loop over either kind (an
     * interface or a heap buffer wrapping the array) would change how the JIT compiles it for MPJ.
     */
    static void pull(double[] own, DoubleBuffer others, double[] acc) {
        int m = own.length / 4;
        for (int j = 0; j < others.capacity() / 4; j++) {
            double ox = others.get(4 * j);
            double oy = others.get(4 * j + 1);
            double oz = others.get(4 * j + 2);
            double om = others.get(4 * j + 3);
            for (int i = 0; i < m; i++) {
                double dx = ox - own[4 * i];
                double dy = oy - own[4 * i + 1];
                double dz = oz - own[4 * i + 2];
                double r2 = dx * dx + dy * dy + dz * dz + NBodyPhysics.SOFTENING2;
                double f = om / (r2 * Math.sqrt(r2));
                acc[3 * i] += f * dx;
                acc[3 * i + 1] += f * dy;
                acc[3 * i + 2] += f * dz;
            }
        }
    }
}
