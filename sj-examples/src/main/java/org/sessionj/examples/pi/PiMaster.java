package org.sessionj.examples.pi;

import java.util.List;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;

/**
 * The master of paper 001 §2 for any number of workers. The paper multicasts to a fixed tuple of
 * sockets; here the sessions are opened by recursion, one stack frame per worker, so every socket
 * stays a linear local: each frame sends its worker the trials, recurses to start the rest, and
 * collects its worker's answer on the way back — all workers compute at once.
 */
public final class PiMaster {

    /** The total hits of {@code trialsPerWorker} points on each of {@code workers}. */
    public static long collectHits(List<SJService> workers, int trialsPerWorker) {
        if (workers.isEmpty()) {
            return 0;
        }
        return collectHits(workers.get(0), workers.subList(1, workers.size()), trialsPerWorker);
    }

    private static long collectHits(@Session(protocol = MasterToWorker.class) SJService first, List<SJService> rest,
            int trialsPerWorker) {
        try (SJSocket worker = first.request()) {
            worker.send(trialsPerWorker);
            long others = collectHits(rest, trialsPerWorker);
            return others + worker.receiveInt();
        }
    }

    /** π from a hit count: the quarter circle covers π/4 of the unit square. */
    public static double estimate(long hits, long trials) {
        return 4.0 * hits / trials;
    }

    /**
     * The half-width of a 5-sigma interval around the true π for {@code trials} points: an estimate
     * outside it is wrong with probability below one in a million.
     */
    public static double tolerance(long trials) {
        double p = Math.PI / 4;
        return 5 * 4 * Math.sqrt(p * (1 - p) / trials);
    }

    private PiMaster() {
    }
}
