package org.sessionj.bench.ompi;

import java.nio.DoubleBuffer;
import mpi.MPI;
import org.sessionj.bench.mpi.JacobiConvergence;
import org.sessionj.bench.mpi.JacobiGrid;
import org.sessionj.bench.mpi.JacobiRank;
import org.sessionj.bench.mpi.JacobiReference;
import org.sessionj.bench.mpi.RankMain;
import org.sessionj.bench.mpi.RunReport;

/**
 * Jacobi on Open MPI's Java bindings with three ranks (north, central "master", south: {@link
 * JacobiRank}): the same grid, sweep, convergence test, row split and bitwise check against a sequential
 * solve ({@link JacobiReference}) as the MPJ Express baseline ({@code JacobiMpj}) and {@code ./sj demo
 * jacobi}; ghost rows with sendRecv, the convergence data with allReduce(MAX), the rows gathered at rank 0.
 *
 * <p>Buffers: the messages of every iteration (ghost rows, convergence data) go through direct
 * {@link DoubleBuffer}s from {@link MPI#newDoubleBuffer}, which the bindings hand to MPI without a copy
 * (for a Java array they copy it into a native buffer and back). A ghost row is put into / taken out of
 * its buffer with one bulk copy, as the MPJ version copies it into / out of its message array. The
 * one-off gather at the end uses arrays. Args: size, most iterations.
 */
public final class JacobiOmpi {
    public static void main(String[] args) {
        RankMain.run(args, JacobiOmpi::run);
    }

    static void run(String[] args) throws Exception {
        String[] app = MPI.Init(args);
        JacobiRank me = JacobiRank.fromArgs(app, MPI.COMM_WORLD.getRank(), MPI.COMM_WORLD.getSize());
        int size = me.size();
        int above = me.rankAbove();
        int below = me.rankBelow();
        JacobiGrid g = me.newGrid();
        DoubleBuffer out = MPI.newDoubleBuffer(size);
        DoubleBuffer in = MPI.newDoubleBuffer(size);
        DoubleBuffer conv = MPI.newDoubleBuffer(2);
        DoubleBuffer all = MPI.newDoubleBuffer(2);
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        JacobiConvergence convergence = new JacobiConvergence(me.maxSweeps());
        while (convergence.unfinished()) {
            g.sweep();
            if (above != JacobiRank.NONE) {
                out.put(0, g.newFirstRow(), 1, size);
                MPI.COMM_WORLD.sendRecv(out, size, MPI.DOUBLE, above, 0, in, size, MPI.DOUBLE, above, 0);
                in.get(0, g.newGhostAbove(), 1, size);
            }
            if (below != JacobiRank.NONE) {
                out.put(0, g.newLastRow(), 1, size);
                MPI.COMM_WORLD.sendRecv(out, size, MPI.DOUBLE, below, 0, in, size, MPI.DOUBLE, below, 0);
                in.get(0, g.newGhostBelow(), 1, size);
            }
            g.swap();
            conv.put(0, g.diff()).put(1, g.maxValue());
            MPI.COMM_WORLD.allReduce(conv, all, 2, MPI.DOUBLE, MPI.MAX);
            convergence.sweptWith(all.get(0), all.get(1));
        }
        double[] mine = g.interior();
        if (me.rank() == 0) {
            double[] north = new double[me.interiorLengthOf(1)];
            double[] south = new double[me.interiorLengthOf(2)];
            MPI.COMM_WORLD.recv(north, north.length, MPI.DOUBLE, 1, 2);
            MPI.COMM_WORLD.recv(south, south.length, MPI.DOUBLE, 2, 2);
            double elapsed = RunReport.millisSince(start);
            RunReport.print(me.verdict(convergence.sweeps(), north, mine, south), elapsed);
        } else {
            MPI.COMM_WORLD.send(mine, mine.length, MPI.DOUBLE, 0, 2);
        }
        MPI.Finalize();
    }
}
