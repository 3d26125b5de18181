package org.sessionj.examples.jacobi;

import java.util.List;
import org.sessionj.api.NoAlias;
import org.sessionj.api.SJ;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.deploy.Progress;

/**
 * The Master of paper 001 (Appendix) and 000 (Fig. 5): it owns the central block of rows, controls
 * the iteration of both workers with one multicast {@code outwhile}, exchanges ghost points with the
 * north and south workers, gathers their convergence data with a join over both sessions
 * ({@code SJ.join}: whichever worker answers first is read first) and assembles their rows at the end.
 */
public final class JacobiMaster {

    private JacobiMaster() {
    }

    /**
     * Solves the {@code size × size} problem with the workers at {@code north} and {@code south}
     * (each a {@link JacobiWorker}), at most {@code maxIterations} sweeps. {@code opened} runs once both
     * sessions are open (every rank of the program is connected).
     */
    public static SequentialJacobi.Solution run(@Session(protocol = MasterToWorker.class) SJService north,
            @Session(protocol = MasterToWorker.class) SJService south, int size, int maxIterations,
            Variant variant, Progress progress, Runnable opened) {
        try (SJSocket mn = north.request();
             SJSocket ms = south.request()) {
            opened.run();
            SJ.send(size, mn, ms);                                   // <mn, ms>.send(size)

            Slab slab = new Slab(size, 1, 3);                        // the central sub-grid
            double[] borderN = new double[size];                     // the ordinary version's reused arrays
            double[] borderS = new double[size];
            double diff = 1.0;
            double valmx = 1.0;
            int iterations = 1;

            // Master controls iteration condition: <mn, ms>.outwhile(...)
            while (SJ.outwhile(Grid.keepGoing(diff, valmx, iterations, maxIterations), mn, ms)) {
                slab.sweep();                                        // Jacobi iterations
                diff = slab.diff();
                valmx = slab.valmx();
                if (variant == Variant.NOALIAS) {
                    // Ghost zone of neighbours, freshly allocated and given away (001 Appendix).
                    @NoAlias double[] borderNorth = slab.newTopBorder();
                    @NoAlias double[] borderSouth = slab.newBottomBorder();
                    mn.pass(borderNorth);
                    ms.pass(borderSouth);
                    @NoAlias double[] ghostNorth = mn.receive();
                    @NoAlias double[] ghostSouth = ms.receive();
                    slab.setNewTopGhosts(ghostNorth);
                    slab.setNewBottomGhosts(ghostSouth);
                } else {
                    slab.copyNewTopBorder(borderN);
                    slab.copyNewBottomBorder(borderS);
                    mn.send(borderN);
                    ms.send(borderS);
                    double[] ghostNorth = mn.receive();
                    double[] ghostSouth = ms.receive();
                    slab.setNewTopGhosts(ghostNorth);
                    slab.setNewBottomGhosts(ghostSouth);
                }
                slab.swap();                                         // Update u with newu

                // Computing new error: each worker's error, then its largest value, gathered with a join
                // over both sessions (whichever worker answers first is read first).
                List<Double> errors = SJ.join(mn, ms);
                List<Double> maxima = SJ.join(mn, ms);
                diff = Math.max(diff, Math.max(errors.get(0), errors.get(1)));
                valmx = Math.max(valmx, Math.max(maxima.get(0), maxima.get(1)));
                if (iterations == 1) {
                    diff = 1.0;
                    valmx = 1.0;
                }
                progress.update(iterations, maxIterations);
                iterations++;
            }

            List<double[][]> rows = SJ.join(mn, ms);                 // both workers' final rows
            return new SequentialJacobi.Solution(concat(rows.get(0), slab.interiorRows(), rows.get(1)),
                    iterations - 1);
        }
    }

    /** The rows of {@code parts}, top to bottom. */
    static double[][] concat(double[][]... parts) {
        int total = 0;
        for (double[][] part : parts) {
            total += part.length;
        }
        double[][] all = new double[total][];
        int at = 0;
        for (double[][] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
