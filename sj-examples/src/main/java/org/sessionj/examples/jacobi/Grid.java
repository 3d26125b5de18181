package org.sessionj.examples.jacobi;

/**
 * The problem every Jacobi version solves: a square grid of {@code size × size} interior points with
 * a fixed boundary (top edge 1.0, left edge 0.5, the rest 0), interior starting at 0, iterated until
 * the paper's convergence test (001 Appendix) or a maximum number of iterations.
 */
public final class Grid {
    /** The relative change below which the iteration stops (paper: {@code 1.0 * Math.pow(10, -5)}). */
    public static final double TOLERANCE = 1e-5;

    private Grid() {
    }

    /** The fixed value of boundary point ({@code row}, {@code col}) of the (size+2)² grid. */
    static double boundary(int row, int col, int size) {
        if (row == 0) {
            return 1.0;
        }
        if (col == 0 && row <= size) {
            return 0.5;
        }
        return 0.0;
    }

    /** Whether ({@code row}, {@code col}) is on the boundary of the (size+2)² grid. */
    static boolean isBoundary(int row, int col, int size) {
        return row == 0 || col == 0 || row == size + 1 || col == size + 1;
    }

    /**
     * The master's loop condition (001 Appendix): go on while the largest change relative to the
     * largest value is at least {@link #TOLERANCE} and fewer than {@code maxIterations} sweeps ran.
     * {@code iteration} counts from 1.
     */
    public static boolean keepGoing(double diff, double valmx, int iteration, int maxIterations) {
        return (diff / valmx) >= TOLERANCE && iteration <= maxIterations;
    }

    /** The first global row (1-based, interior) of part {@code part} of {@code parts} row blocks. */
    static int firstRow(int size, int part, int parts) {
        return 1 + part * (size / parts);
    }

    /**
     * The rows of part {@code part}: {@code size / parts} each, the last part also takes the
     * remainder (as the paper's Master assembles its south worker's rows).
     */
    static int rowCount(int size, int part, int parts) {
        return part == parts - 1 ? size - part * (size / parts) : size / parts;
    }
}
