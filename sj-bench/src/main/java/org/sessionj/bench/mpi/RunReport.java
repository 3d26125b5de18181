package org.sessionj.bench.mpi;

import java.util.Locale;

/**
 * Rank 0's last two lines, which the comparison scripts read: the verification verdict (starting
 * {@code verified} or containing {@code VERIFICATION FAILED}) and {@code run X.X ms}.
 */
public final class RunReport {
    private RunReport() {
    }

    /** Milliseconds since {@code startNanos}, a {@link System#nanoTime()} reading. */
    public static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    /** Prints {@code verdict} and then the run time as {@code run X.X ms}. */
    public static void print(String verdict, double millis) {
        System.out.println(verdict);
        System.out.printf(Locale.ROOT, "run %.1f ms%n", millis);
    }
}
