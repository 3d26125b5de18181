package org.sessionj.cli;

import java.io.PrintWriter;
import java.util.concurrent.TimeUnit;
import org.sessionj.examples.deploy.Progress;

/**
 * A progress bar on standard error for long runs: nothing for the first two seconds (short runs stay
 * quiet); then, on a terminal, one line redrawn in place at most ten times a second, and elsewhere
 * (logs, pipes) a plain line at each quarter.
 */
final class ProgressBar implements Progress {
    private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long REDRAW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final boolean terminal;
    private final long quietNanos;
    private final String label;
    private final long start = System.nanoTime();
    private long lastDraw;
    private int lastQuarter;
    private boolean drawn;

    ProgressBar(PrintWriter err, boolean terminal, String label) {
        this(err, terminal, label, QUIET_NANOS);
    }

    /** A bar that stays quiet for {@code quietNanos} instead of two seconds (tests). */
    ProgressBar(PrintWriter err, boolean terminal, String label, long quietNanos) {
        this.err = err;
        this.terminal = terminal;
        this.label = label;
        this.quietNanos = quietNanos;
    }

    /** Whether standard error is a terminal: the {@code ./sj} launcher tells (a JVM cannot see it for stderr). */
    static boolean stderrIsTerminal() {
        return org.sessionj.runtime.spi.support.SystemSettings.system().flag("stderr.terminal", false);
    }

    @Override
    public void update(long done, long total) {
        long now = System.nanoTime();
        if (now - start < quietNanos || total <= 0) {
            return;
        }
        double fraction = Math.min(1.0, (double) done / total);
        if (terminal) {
            if (now - lastDraw < REDRAW_NANOS && done < total) {
                return;
            }
            lastDraw = now;
            int filled = (int) Math.round(fraction * WIDTH);
            err.printf("\r%s [%s%s] %3.0f%% %d/%d", label, "#".repeat(filled), ".".repeat(WIDTH - filled),
                    fraction * 100, done, total);
            err.flush();
            drawn = true;
        } else {
            int quarter = (int) (fraction * 4);
            if (quarter > lastQuarter) {
                lastQuarter = quarter;
                err.printf("%s: %d%% (%d/%d)%n", label, quarter * 25, done, total);
                err.flush();
            }
        }
    }

    /** Ends the bar's line, if one was drawn. */
    void finish() {
        if (drawn) {
            err.println();
            err.flush();
        }
    }
}
