package org.sessionj.bench.mpi;

import java.util.SplittableRandom;

/**
 * A π worker's sampling: the same points as {@code ./sj demo pi}, where worker {@code w} (rank
 * {@code w + 1}) draws from a {@link SplittableRandom} seeded {@code 0x5eed_0000 + w}.
 */
public final class PiSampler {
    private static final long SEED_BASE = 0x5eed_0000L;

    private PiSampler() {
    }

    /** How many of {@code points} random points of the unit square fall within the quarter circle. */
    public static int hits(int worker, int points) {
        SplittableRandom random = new SplittableRandom(SEED_BASE + worker);
        int hits = 0;
        for (int i = 0; i < points; i++) {
            double x = random.nextDouble();
            double y = random.nextDouble();
            if (x * x + y * y <= 1.0) {
                hits++;
            }
        }
        return hits;
    }
}
