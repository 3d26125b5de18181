package org.sessionj.examples.jacobi;

/** The reference: the same problem and stopping rule solved on one grid by one thread. */
public final class SequentialJacobi {

    private SequentialJacobi() {
    }

    /**
     * A solution.
     *
     * @param rows the interior rows of the final iterate, full width (boundary columns included)
     * @param iterations the number of sweeps done
     */
    public record Solution(double[][] rows, int iterations) {
    }

    /** Solves the {@code size × size} problem with at most {@code maxIterations} sweeps. */
    public static Solution solve(int size, int maxIterations) {
        Slab grid = new Slab(size, 0, 1);
        double diff = 1.0;
        double valmx = 1.0;
        int iterations = 1;
        while (Grid.keepGoing(diff, valmx, iterations, maxIterations)) {
            grid.sweep();
            diff = grid.diff();
            valmx = grid.valmx();
            grid.swap();
            if (iterations == 1) {
                diff = 1.0;
                valmx = 1.0;
            }
            iterations++;
        }
        return new Solution(grid.interiorRows(), iterations - 1);
    }
}
