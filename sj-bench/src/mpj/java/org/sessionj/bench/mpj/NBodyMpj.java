package org.sessionj.bench.mpj;

import mpi.MPI;
import org.sessionj.bench.mpi.NBodyPhysics;
import org.sessionj.bench.mpi.NBodyRing;
import org.sessionj.bench.mpi.NBodySystem;
import org.sessionj.bench.mpi.RankMain;
import org.sessionj.bench.mpi.RunReport;

/**
 * n-Body in MPJ Express on a ring (the MPI program of 001 §6 in Java): the same bodies, physics and
 * block split as {@code ./sj demo nbody} ({@link NBodySystem}, {@link NBodyPhysics}); particle sets
 * (x, y, z, mass packed in a double[]) travel p−1 times round the ring with Sendrecv, and the pull reads
 * the visiting set straight from its message array; rank 0 gathers the final positions and compares them
 * with a sequential simulation (within 1e-9). Args: bodies (a multiple of the rank count), steps, seed.
 */
public final class NBodyMpj {
    public static void main(String[] args) {
        RankMain.run(args, NBodyMpj::run);
    }

    static void run(String[] args) throws Exception {
        String[] app = MPI.Init(args);
        NBodyRing ring = NBodyRing.fromArgs(app, MPI.COMM_WORLD.Rank(), MPI.COMM_WORLD.Size());
        int m = ring.blockSize();
        double[] own = ring.ownParticles();
        double[] vel = ring.ownVelocities();
        double[] current = new double[4 * m];
        double[] next = new double[4 * m];
        double[] acc = new double[3 * m];
        MPI.COMM_WORLD.Barrier();
        long start = System.nanoTime();
        for (int step = 0; step < ring.steps(); step++) {
            System.arraycopy(own, 0, current, 0, 4 * m);
            for (int k = 0; k < ring.ranks() - 1; k++) {
                NBodyPhysics.pull(own, current, acc);
                MPI.COMM_WORLD.Sendrecv(current, 0, 4 * m, MPI.DOUBLE, ring.right(), k, next, 0, 4 * m, MPI.DOUBLE, ring.left(), k);
                double[] t = current;
                current = next;
                next = t;
            }
            NBodyPhysics.pull(own, current, acc);
            NBodyPhysics.move(own, vel, acc);
        }
        if (ring.rank() == 0) {
            double[] all = new double[4 * ring.bodies()];
            System.arraycopy(own, 0, all, 0, 4 * m);
            for (int r = 1; r < ring.ranks(); r++) {
                MPI.COMM_WORLD.Recv(all, 4 * r * m, 4 * m, MPI.DOUBLE, r, 99);
            }
            double elapsed = RunReport.millisSince(start);
            RunReport.print(ring.system().verdict(all, ring.steps()), elapsed);
        } else {
            MPI.COMM_WORLD.Send(own, 0, 4 * m, MPI.DOUBLE, 0, 99);
        }
        MPI.Finalize();
    }
}
