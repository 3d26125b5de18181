package org.sessionj.examples.jacobi;

import org.sessionj.api.NoAlias;

/**
 * One process's block of rows with one ghost row above and below (paper 000 Fig. 3): the current
 * iterate {@code u}, the next one {@code newu}, and the sweep that computes it.
 */
final class Slab {
    private final int size;
    private final int rows;
    private double[][] u;
    private double[][] newu;
    private double diff;
    private double valmx;

    /** Part {@code part} of {@code parts} row blocks of the {@code size × size} problem, initialised. */
    Slab(int size, int part, int parts) {
        if (size < parts) {
            throw new IllegalArgumentException("expected a grid size of at least " + parts + " (one row per part) but found "
                    + size);
        }
        this.size = size;
        this.rows = Grid.rowCount(size, part, parts);
        int first = Grid.firstRow(size, part, parts);
        this.u = new double[rows + 2][size + 2];
        this.newu = new double[rows + 2][size + 2];
        for (int i = 0; i < rows + 2; i++) {
            int row = first - 1 + i;
            for (int j = 0; j < size + 2; j++) {
                if (Grid.isBoundary(row, j, size)) {
                    u[i][j] = Grid.boundary(row, j, size);
                    newu[i][j] = u[i][j];
                }
            }
        }
    }

    /** The next iterate of the interior from the current one (001 Appendix: "Jacobi iterations"). */
    void sweep() {
        double d = 0.0;
        double v = 0.0;
        for (int i = 1; i < rows + 1; i++) {
            double[] above = u[i - 1];
            double[] row = u[i];
            double[] below = u[i + 1];
            double[] next = newu[i];
            for (int j = 1; j < size + 1; j++) {
                next[j] = (above[j] + below[j] + row[j - 1] + row[j + 1]) / 4.0;
                d = Math.max(d, Math.abs(next[j] - row[j]));
                v = Math.max(v, Math.abs(next[j]));
            }
        }
        diff = d;
        valmx = v;
    }

    /** The largest change of the last sweep. */
    double diff() {
        return diff;
    }

    /** The largest absolute value the last sweep produced. */
    double valmx() {
        return valmx;
    }

    /** A fresh array with the next iterate's top row (our ghost points for the part above). */
    @NoAlias
    double[] newTopBorder() {
        @NoAlias double[] border = new double[size];
        for (int k = 0; k < size; k++) {
            border[k] = newu[1][k + 1];
        }
        return border;
    }

    /** A fresh array with the next iterate's bottom row (our ghost points for the part below). */
    @NoAlias
    double[] newBottomBorder() {
        @NoAlias double[] border = new double[size];
        for (int k = 0; k < size; k++) {
            border[k] = newu[rows][k + 1];
        }
        return border;
    }

    /** Copies the next iterate's top row into {@code border} (the ordinary version reuses one array). */
    void copyNewTopBorder(double[] border) {
        System.arraycopy(newu[1], 1, border, 0, size);
    }

    /** Copies the next iterate's bottom row into {@code border}. */
    void copyNewBottomBorder(double[] border) {
        System.arraycopy(newu[rows], 1, border, 0, size);
    }

    /** The part above sent its next bottom row: our top ghost row of the next iterate. */
    void setNewTopGhosts(double[] ghosts) {
        checkLength(ghosts);
        System.arraycopy(ghosts, 0, newu[0], 1, size);
    }

    /** The part below sent its next top row: our bottom ghost row of the next iterate. */
    void setNewBottomGhosts(double[] ghosts) {
        checkLength(ghosts);
        System.arraycopy(ghosts, 0, newu[rows + 1], 1, size);
    }

    private void checkLength(double[] ghosts) {
        if (ghosts.length != size) {
            throw new IllegalStateException("expected " + size + " ghost points but received " + ghosts.length);
        }
    }

    /** Makes the next iterate the current one ("Update u with newu"). */
    void swap() {
        double[][] tmp = u;
        u = newu;
        newu = tmp;
    }

    /** Copies of the current interior rows, full width (boundary columns included). */
    double[][] interiorRows() {
        double[][] copy = new double[rows][];
        for (int i = 0; i < rows; i++) {
            copy[i] = u[i + 1].clone();
        }
        return copy;
    }

    /** The number of interior points per row. */
    int size() {
        return size;
    }
}
