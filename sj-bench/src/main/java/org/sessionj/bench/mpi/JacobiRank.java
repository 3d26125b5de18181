package org.sessionj.bench.mpi;

/**
 * One rank's part in the papers' Jacobi deployment on three ranks: rank 1 holds the north block, rank 0
 * (the "master") the central one and rank 2 the south one, each a {@link JacobiGrid} block of the same
 * row split as {@code ./sj demo jacobi}, on a grid of {@code size × size} interior points solved with at
 * most {@code maxSweeps} sweeps.
 */
public record JacobiRank(int rank, int size, int maxSweeps) {
    /** The number of ranks, the number of blocks. */
    public static final int RANKS = 3;
    /** No neighbour in that direction. */
    public static final int NONE = -1;

    public JacobiRank {
        part(rank);
        if (size < RANKS) {
            throw new IllegalArgumentException("expected a grid size of at least " + RANKS + " but found " + size);
        }
    }

    /**
     * The part of {@code rank} of {@code ranks} (which must be {@link #RANKS}) in the run of the program
     * arguments {@code app}, whose last two are the size and the most sweeps (earlier ones are the launcher's).
     */
    public static JacobiRank fromArgs(String[] app, int rank, int ranks) {
        if (ranks != RANKS) {
            throw new IllegalArgumentException("expected " + RANKS + " ranks but found " + ranks);
        }
        if (app.length < 2) {
            throw new IllegalArgumentException("expected the arguments SIZE MAX-ITERATIONS but found " + app.length
                    + " argument(s)");
        }
        return new JacobiRank(rank, Integer.parseInt(app[app.length - 2]), Integer.parseInt(app[app.length - 1]));
    }

    /** The block of {@code rank}: 0 north, 1 central, 2 south. */
    private static int part(int rank) {
        return switch (rank) {
            case 1 -> 0;
            case 0 -> 1;
            case 2 -> 2;
            default -> throw new IllegalArgumentException("expected a rank 0, 1 or 2 but found " + rank);
        };
    }

    /** The rank holding the rows above this rank's, or {@link #NONE}. */
    public int rankAbove() {
        return switch (part(rank)) {
            case 0 -> NONE;
            case 1 -> 1;
            default -> 0;
        };
    }

    /** The rank holding the rows below this rank's, or {@link #NONE}. */
    public int rankBelow() {
        return switch (part(rank)) {
            case 0 -> 0;
            case 1 -> 2;
            default -> NONE;
        };
    }

    /** This rank's block at the start. */
    public JacobiGrid newGrid() {
        return new JacobiGrid(size, part(rank), RANKS);
    }

    /** The length of {@code other}'s {@link JacobiGrid#interior()}, what that rank sends to rank 0 at the end. */
    public int interiorLengthOf(int other) {
        return JacobiGrid.rowCount(size, part(other), RANKS) * (size + 2);
    }

    /** Rank 0's verdict on the gathered blocks after {@code sweeps} sweeps ({@link JacobiReference#verdict}). */
    public String verdict(int sweeps, double[] north, double[] central, double[] south) {
        return JacobiReference.verdict(size, maxSweeps, sweeps, north, central, south);
    }
}
