package org.sessionj.bench.mpi;

/**
 * When Jacobi stops, as in {@code ./sj demo jacobi}: once the largest change relative to the largest value
 * falls below {@link #TOLERANCE}, or after the most sweeps allowed. The first sweep never ends it.
 */
public final class JacobiConvergence {
    public static final double TOLERANCE = 1e-5;

    private final int maxSweeps;
    private double diff = 1.0;
    private double valmx = 1.0;
    private int iterations = 1;

    public JacobiConvergence(int maxSweeps) {
        this.maxSweeps = maxSweeps;
    }

    /** Whether another sweep is due. */
    public boolean unfinished() {
        return diff / valmx >= TOLERANCE && iterations <= maxSweeps;
    }

    /** Records a sweep of the whole grid: its largest change and its largest absolute value. */
    public void sweptWith(double diff, double maxValue) {
        if (iterations == 1) {
            this.diff = 1.0;
            this.valmx = 1.0;
        } else {
            this.diff = diff;
            this.valmx = maxValue;
        }
        iterations++;
    }

    /** The sweeps done so far. */
    public int sweeps() {
        return iterations - 1;
    }
}
