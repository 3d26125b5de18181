package org.sessionj.bench.mpi;

import java.util.Locale;

/**
 * The π estimate from {@code hits} of {@code points} points and its check as {@code ./sj demo pi} does it:
 * within 5σ of π, so a correct program fails with probability below 10⁻⁶.
 */
public record PiEstimate(long hits, long points) {
    public PiEstimate {
        if (points <= 0 || hits < 0 || hits > points) {
            throw new IllegalArgumentException(
                    "expected 0 <= hits <= points and points > 0 but found " + hits + " hits of " + points);
        }
    }

    public double pi() {
        return 4.0 * hits / points;
    }

    /** The half-width of the 5σ interval around π for this many points. */
    public double tolerance() {
        double quarter = Math.PI / 4;
        return 5 * 4 * Math.sqrt(quarter * (1 - quarter) / points);
    }

    public boolean verified() {
        return Math.abs(pi() - Math.PI) <= tolerance();
    }

    /** {@code pi ~ 3.141593; verified: error …, 5-sigma tolerance …} (or {@code VERIFICATION FAILED}). */
    public String verdict() {
        return String.format(Locale.ROOT, "pi ~ %.6f; %s: error %.2e, 5-sigma tolerance %.2e", pi(),
                verified() ? "verified" : "VERIFICATION FAILED", Math.abs(pi() - Math.PI), tolerance());
    }
}
