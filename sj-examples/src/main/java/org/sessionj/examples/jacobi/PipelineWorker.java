package org.sessionj.examples.jacobi;

import org.sessionj.api.NoAlias;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;

/**
 * A worker inside the pipeline: the worker above is its master ({@link WorkerToMaster}), and it is
 * the master of the worker below ({@link MasterToWorker}). It follows the iteration of the one and
 * decides the other's with the same decision ({@code right.outwhile(left.inwhile())}), exchanges
 * ghost rows with both, and passes the convergence data and, at the end, the rows upwards.
 */
public final class PipelineWorker {

    private PipelineWorker() {
    }

    /** Serves the session from above accepted on {@code server}; {@code next} is the worker below. */
    public static void run(@Session(protocol = WorkerToMaster.class) SJServerSocket server,
            @Session(protocol = MasterToWorker.class) SJService next, int part, int parts, Variant variant) {
        try (SJSocket left = server.accept();
             SJSocket right = next.request()) {
            int size = left.receiveInt();
            right.send(size);
            Slab slab = new Slab(size, part, parts);
            double[] top = new double[size];
            double[] bottom = new double[size];
            while (right.outwhile(left.inwhile())) {
                slab.sweep();
                if (variant == Variant.NOALIAS) {
                    @NoAlias double[] down = slab.newBottomBorder();
                    right.pass(down);
                    @NoAlias double[] fromAbove = left.receive();
                    slab.setNewTopGhosts(fromAbove);
                    @NoAlias double[] up = slab.newTopBorder();
                    left.pass(up);
                    @NoAlias double[] fromBelow = right.receive();
                    slab.setNewBottomGhosts(fromBelow);
                } else {
                    slab.copyNewBottomBorder(bottom);
                    right.send(bottom);
                    double[] fromAbove = left.receive();
                    slab.setNewTopGhosts(fromAbove);
                    slab.copyNewTopBorder(top);
                    left.send(top);
                    double[] fromBelow = right.receive();
                    slab.setNewBottomGhosts(fromBelow);
                }
                slab.swap();
                left.send(Math.max(slab.diff(), right.receiveDouble()));
                left.send(Math.max(slab.valmx(), right.receiveDouble()));
            }
            double[][] below = right.receive();
            left.send(JacobiMaster.concat(slab.interiorRows(), below));
        }
    }
}
