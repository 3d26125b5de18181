package org.sessionj.examples.jacobi;

import org.sessionj.api.NoAlias;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.deploy.Progress;

/**
 * The head of the pipeline version (paper 000 §6.3: "a linear pipeline topology, rather than
 * multicast session-iteration, to support a dynamic number of Workers"). It owns the top block of
 * rows and decides the iteration; each worker passes the decision on to the next by iteration
 * chaining, and the convergence data of all workers below comes back as one maximum.
 */
public final class PipelineMaster {

    private PipelineMaster() {
    }

    /** Solves the problem with the pipeline whose first worker is at {@code next}; {@code parts} = workers + 1. */
    public static SequentialJacobi.Solution run(@Session(protocol = MasterToWorker.class) SJService next, int size, int parts, int maxIterations, Variant variant,
            Progress progress) {
        try (SJSocket right = next.request()) {
            right.send(size);
            Slab slab = new Slab(size, 0, parts);
            double[] border = new double[size];
            double diff = 1.0;
            double valmx = 1.0;
            int iterations = 1;
            while (right.outwhile(Grid.keepGoing(diff, valmx, iterations, maxIterations))) {
                slab.sweep();
                diff = slab.diff();
                valmx = slab.valmx();
                if (variant == Variant.NOALIAS) {
                    @NoAlias double[] bottom = slab.newBottomBorder();
                    right.pass(bottom);
                    @NoAlias double[] ghosts = right.receive();
                    slab.setNewBottomGhosts(ghosts);
                } else {
                    slab.copyNewBottomBorder(border);
                    right.send(border);
                    double[] ghosts = right.receive();
                    slab.setNewBottomGhosts(ghosts);
                }
                slab.swap();
                diff = Math.max(diff, right.receiveDouble());       // the largest change below us
                valmx = Math.max(valmx, right.receiveDouble());
                if (iterations == 1) {
                    diff = 1.0;
                    valmx = 1.0;
                }
                progress.update(iterations, maxIterations);
                iterations++;
            }
            double[][] below = right.receive();
            return new SequentialJacobi.Solution(JacobiMaster.concat(slab.interiorRows(), below), iterations - 1);
        }
    }
}
