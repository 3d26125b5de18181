package org.sessionj.examples.jacobi;

import org.sessionj.api.NoAlias;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;

/**
 * A worker that talks to one neighbour only: the north or south worker of the paper's three-part
 * decomposition, and the last worker of the pipeline. It follows its master's iteration
 * ({@code inwhile}), exchanges ghost points with it, reports its convergence data, and sends its
 * rows at the end.
 */
public final class JacobiWorker {

    private JacobiWorker() {
    }

    /**
     * Serves one session accepted on {@code server}, owning part {@code part} of {@code parts} row
     * blocks; {@code masterAbove} says whether the neighbour holds the rows above (south worker,
     * pipeline) or below (north worker).
     */
    public static void run(@Session(protocol = WorkerToMaster.class) SJServerSocket server, int part, int parts, boolean masterAbove, Variant variant) {
        try (SJSocket wm = server.accept()) {
            int size = wm.receiveInt();
            Slab slab = new Slab(size, part, parts);
            double[] border = new double[size];

            // Workers obey the Master: <wm>.inwhile()
            while (wm.inwhile()) {
                slab.sweep();
                if (variant == Variant.NOALIAS) {
                    @NoAlias double[] ghost = wm.receive();
                    placeGhosts(slab, masterAbove, ghost);
                    // Array containing our boundary values (ghost points for the Master) declared as noalias.
                    @NoAlias double[] ghostPoints = masterAbove ? slab.newTopBorder() : slab.newBottomBorder();
                    wm.pass(ghostPoints);                            // zero-copy where the Master shares our heap
                } else {
                    double[] ghost = wm.receive();
                    placeGhosts(slab, masterAbove, ghost);
                    if (masterAbove) {
                        slab.copyNewTopBorder(border);
                    } else {
                        slab.copyNewBottomBorder(border);
                    }
                    wm.send(border);
                }
                slab.swap();
                wm.send(slab.diff());
                wm.send(slab.valmx());
            }
            wm.send(slab.interiorRows());
        }
    }

    private static void placeGhosts(Slab slab, boolean masterAbove, double[] ghosts) {
        if (masterAbove) {
            slab.setNewTopGhosts(ghosts);
        } else {
            slab.setNewBottomGhosts(ghosts);
        }
    }
}
