package org.sessionj.bench.mpi;

/**
 * One block of consecutive rows of the Jacobi grid, with the same boundary, sweep and convergence data
 * as sj-examples' {@code Slab}: the whole grid is {@code size × size} interior points inside a border
 * (top 1.0, left 0.5, the rest 0.0), and a block of {@code parts} holds its rows plus a ghost row above and
 * below. Every row array has {@code size + 2} entries: the interior columns are {@code 1..size}.
 *
 * <p>A sweep computes the new values into a second set of rows; the ghost rows of that new set are what
 * the neighbours exchange before {@link #swap()} makes it current.
 */
public final class JacobiGrid {
    private final int size;
    private final int rows;
    private double[][] u;
    private double[][] newu;
    private double diff;
    private double valmx;

    /** Block {@code part} (0 = top) of {@code parts} of a grid of {@code size × size} interior points. */
    public JacobiGrid(int size, int part, int parts) {
        if (parts < 1 || part < 0 || part >= parts || size < parts) {
            throw new IllegalArgumentException("expected 0 <= part < parts <= size but found part " + part
                    + " of " + parts + " for size " + size);
        }
        this.size = size;
        this.rows = rowCount(size, part, parts);
        int first = 1 + part * (size / parts);
        u = new double[rows + 2][size + 2];
        newu = new double[rows + 2][size + 2];
        for (int i = 0; i < rows + 2; i++) {
            int row = first - 1 + i;
            for (int j = 0; j < size + 2; j++) {
                if (row == 0 || j == 0 || row == size + 1 || j == size + 1) {
                    u[i][j] = row == 0 ? 1.0 : (j == 0 && row <= size) ? 0.5 : 0.0;
                    newu[i][j] = u[i][j];
                }
            }
        }
    }

    /** The rows of block {@code part} of {@code parts}: an equal share, the last block takes the rest. */
    public static int rowCount(int size, int part, int parts) {
        return part == parts - 1 ? size - part * (size / parts) : size / parts;
    }

    /** One Jacobi sweep into the new rows; afterwards {@link #diff()} and {@link #maxValue()} describe it. */
    public void sweep() {
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

    /** Makes the new rows current (after the ghost rows have been exchanged). */
    public void swap() {
        double[][] t = u;
        u = newu;
        newu = t;
    }

    /** The largest change of one point in the last sweep. */
    public double diff() {
        return diff;
    }

    /** The largest absolute value of a point after the last sweep. */
    public double maxValue() {
        return valmx;
    }

    public int size() {
        return size;
    }

    /** The rows of this block, ghost rows not counted. */
    public int rows() {
        return rows;
    }

    /** The new values of this block's first row, which the block above needs as its lower ghost row. */
    public double[] newFirstRow() {
        return newu[1];
    }

    /** The new values of this block's last row, which the block below needs as its upper ghost row. */
    public double[] newLastRow() {
        return newu[rows];
    }

    /** Where the block above's new last row goes. */
    public double[] newGhostAbove() {
        return newu[0];
    }

    /** Where the block below's new first row goes. */
    public double[] newGhostBelow() {
        return newu[rows + 1];
    }

    /** This block's current rows, border columns included, one after the other in a new array. */
    public double[] interior() {
        double[] flat = new double[rows * (size + 2)];
        for (int i = 0; i < rows; i++) {
            System.arraycopy(u[i + 1], 0, flat, i * (size + 2), size + 2);
        }
        return flat;
    }
}
