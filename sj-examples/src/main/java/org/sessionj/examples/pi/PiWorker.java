package org.sessionj.examples.pi;

import java.util.SplittableRandom;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;

/** The worker of paper 001 §2: one session, one batch of trials. */
public final class PiWorker {
    private final long seed;

    /** A worker whose random points come from {@code seed} (distinct per worker). */
    public PiWorker(long seed) {
        this.seed = seed;
    }

    /** Serves one master session accepted on {@code server}. */
    public void serve(@Session(protocol = WorkerToMaster.class) SJServerSocket server) {
        try (SJSocket master = server.accept()) {
            int trials = master.receiveInt();
            master.send(countHits(trials, seed));
        }
    }

    /** How many of {@code trials} random points of the unit square fall inside the quarter circle. */
    static int countHits(int trials, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int hits = 0;
        for (int i = 0; i < trials; i++) {
            double x = random.nextDouble();
            double y = random.nextDouble();
            if (x * x + y * y <= 1.0) {
                hits++;
            }
        }
        return hits;
    }
}
