package org.sessionj.examples.pi;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sessionj.api.SJService;
import org.sessionj.examples.deploy.RankContext;
import org.sessionj.examples.deploy.RankProgram;

/**
 * Monte Carlo π as a rank program: rank 0 is the master, ranks 1 … {@code workers} the workers.
 *
 * @param workers the number of workers
 * @param trialsPerWorker points each worker tests
 */
public record PiProgram(int workers, int trialsPerWorker) implements RankProgram<PiProgram.Outcome> {

    /** Validates the configuration. */
    public PiProgram {
        if (workers < 1) {
            throw new IllegalArgumentException("expected at least 1 worker but found " + workers);
        }
        if (trialsPerWorker < 1) {
            throw new IllegalArgumentException("expected at least 1 point per worker but found " + trialsPerWorker);
        }
    }

    @Override
    public String name() {
        return "pi";
    }

    @Override
    public int ranks() {
        return workers + 1;
    }

    @Override
    public List<Class<?>> accepts(int rank) {
        return rank == 0 ? List.of() : List.of(WorkerToMaster.class);
    }

    @Override
    public Outcome run(RankContext context) {
        if (context.rank() != 0) {
            new PiWorker(0x5eed_0000L + context.rank() - 1).serve(context.server(0));
            return null;
        }
        List<SJService> services = new ArrayList<>();
        for (int rank = 1; rank <= workers; rank++) {
            services.add(context.table().service(MasterToWorker.class, rank, 0));
        }
        long hits = PiMaster.collectHits(services, trialsPerWorker);
        long trials = (long) trialsPerWorker * workers;
        return new Outcome(workers, trials, PiMaster.estimate(hits, trials));
    }

    /**
     * Rank 0's result.
     *
     * @param workers the number of workers
     * @param trials all points tested
     * @param pi the estimate
     */
    public record Outcome(int workers, long trials, double pi) implements RankProgram.Outcome {

        @Override
        public List<String> summary() {
            return List.of(String.format(Locale.ROOT, "Monte Carlo pi: %d workers, %,d points: pi ~ %.6f", workers, trials,
                    pi));
        }

        @Override
        public Verification verify() {
            double tolerance = PiMaster.tolerance(trials);
            double error = Math.abs(pi - Math.PI);
            return new Verification(error <= tolerance, String.format(Locale.ROOT,
                    "error %.2e %s the 5-sigma tolerance %.2e", error, error <= tolerance ? "within" : "NOT within",
                    tolerance));
        }
    }
}
