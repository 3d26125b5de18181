package org.sessionj.bench.mpj;

import mpi.MPI;
import org.sessionj.bench.mpi.JacobiConvergence;
import org.sessionj.bench.mpi.JacobiGrid;
import org.sessionj.bench.mpi.JacobiRank;
import org.sessionj.bench.mpi.JacobiReference;
import org.sessionj.bench.mpi.RankMain;
import org.sessionj.bench.mpi.RunReport;

/**
 * Jacobi in MPJ Express with three ranks as in the papers (north, central "master", south: {@link
 * JacobiRank}): the same grid, sweep, convergence test and row split as {@code ./sj demo jacobi}; ghost
 * rows with Sendrecv, the convergence data with Allreduce(MAX), the rows gathered at rank 0 and checked
 * bitwise against a sequential solve ({@link JacobiReference}). A ghost row is copied into / out of a
 * message array around each Sendrecv. Args: size, most iterations.
 */
public final class JacobiMpj {
    public static void main(String[] args) {
        RankMain.run(args, JacobiMpj::run);
    }

    static void run(String[] args) throws Exception {
        String[] app = MPI.Init(args);
        JacobiRank me = JacobiRank.fromArgs(app, MPI.COMM_WORLD.Rank(), MPI.COMM_WORLD.Size());
        int size = me.size();
        int above = me.rankAbove();
        int below = me.rankBelow();
        JacobiGrid g = me.newGrid();
        MPI.COMM_WORLD.Barrier();
        long start = System.nanoTime();
        JacobiConvergence convergence = new JacobiConvergence(me.maxSweeps());
        double[] out = new double[size];
        double[] in = new double[size];
        double[] conv = new double[2];
        double[] all = new double[2];
        while (convergence.unfinished()) {
            g.sweep();
            if (above != JacobiRank.NONE) {
                System.arraycopy(g.newFirstRow(), 1, out, 0, size);
                MPI.COMM_WORLD.Sendrecv(out, 0, size, MPI.DOUBLE, above, 0, in, 0, size, MPI.DOUBLE, above, 0);
                System.arraycopy(in, 0, g.newGhostAbove(), 1, size);
            }
            if (below != JacobiRank.NONE) {
                System.arraycopy(g.newLastRow(), 1, out, 0, size);
                MPI.COMM_WORLD.Sendrecv(out, 0, size, MPI.DOUBLE, below, 0, in, 0, size, MPI.DOUBLE, below, 0);
                System.arraycopy(in, 0, g.newGhostBelow(), 1, size);
            }
            g.swap();
            conv[0] = g.diff();
            conv[1] = g.maxValue();
            MPI.COMM_WORLD.Allreduce(conv, 0, all, 0, 2, MPI.DOUBLE, MPI.MAX);
            convergence.sweptWith(all[0], all[1]);
        }
        double[] mine = g.interior();
        if (me.rank() == 0) {
            double[] north = new double[me.interiorLengthOf(1)];
            double[] south = new double[me.interiorLengthOf(2)];
            MPI.COMM_WORLD.Recv(north, 0, north.length, MPI.DOUBLE, 1, 2);
            MPI.COMM_WORLD.Recv(south, 0, south.length, MPI.DOUBLE, 2, 2);
            double elapsed = RunReport.millisSince(start);
            RunReport.print(me.verdict(convergence.sweeps(), north, mine, south), elapsed);
        } else {
            MPI.COMM_WORLD.Send(mine, 0, mine.length, MPI.DOUBLE, 0, 2);
        }
        MPI.Finalize();
    }
}
