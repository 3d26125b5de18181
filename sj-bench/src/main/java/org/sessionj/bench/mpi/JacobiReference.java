package org.sessionj.bench.mpi;

import java.util.Arrays;

/**
 * The check of a distributed Jacobi run: the whole grid solved by one {@link JacobiGrid} with the same
 * {@link JacobiConvergence} must stop after the same number of sweeps with bitwise the same values.
 */
public final class JacobiReference {
    private JacobiReference() {
    }

    /** The interior of the whole grid solved sequentially, and the sweeps it took. */
    public record Solution(double[] interior, int sweeps) {
    }

    public static Solution solve(int size, int maxSweeps) {
        JacobiGrid grid = new JacobiGrid(size, 0, 1);
        JacobiConvergence convergence = new JacobiConvergence(maxSweeps);
        while (convergence.unfinished()) {
            grid.sweep();
            convergence.sweptWith(grid.diff(), grid.maxValue());
            grid.swap();
        }
        return new Solution(grid.interior(), convergence.sweeps());
    }

    /**
     * Rank 0's verdict on the gathered {@link JacobiGrid#interior()}s of the north, central and south
     * blocks after {@code sweeps} sweeps: {@code N iterations; verified: …} or {@code … VERIFICATION FAILED}.
     */
    public static String verdict(int size, int maxSweeps, int sweeps, double[] north, double[] central, double[] south) {
        double[] whole = new double[north.length + central.length + south.length];
        System.arraycopy(north, 0, whole, 0, north.length);
        System.arraycopy(central, 0, whole, north.length, central.length);
        System.arraycopy(south, 0, whole, north.length + central.length, south.length);
        Solution reference = solve(size, maxSweeps);
        boolean same = Arrays.equals(whole, reference.interior()) && sweeps == reference.sweeps();
        return sweeps + " iterations; " + (same ? "verified: bitwise equal to a sequential solve" : "VERIFICATION FAILED");
    }
}
