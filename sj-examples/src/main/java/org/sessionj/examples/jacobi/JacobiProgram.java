package org.sessionj.examples.jacobi;

import java.util.List;
import java.util.Locale;
import org.sessionj.examples.deploy.RankContext;
import org.sessionj.examples.deploy.RankProgram;

/**
 * Jacobi as a rank program: rank 0 is the master, ranks 1… the workers. With two workers and no
 * pipeline it is the papers' master-and-two-workers version (multicast {@code outwhile}); otherwise
 * the pipeline with any number of workers.
 *
 * @param workers the number of workers (at least 1; exactly 2 unless {@code pipeline})
 * @param size the side of the square grid (interior points)
 * @param maxIterations the most sweeps
 * @param variant how ghost points travel
 * @param pipeline whether to use the pipeline version
 */
public record JacobiProgram(int workers, int size, int maxIterations, Variant variant, boolean pipeline)
        implements RankProgram<JacobiProgram.Outcome> {

    /** Validates the configuration. */
    public JacobiProgram {
        if (workers < 1) {
            throw new IllegalArgumentException("expected at least 1 worker but found " + workers);
        }
        if (!pipeline && workers != 2) {
            throw new IllegalArgumentException("expected 2 workers for the master-and-two-workers version but found "
                    + workers + " (the pipeline version takes any number)");
        }
        if (size < workers + 1) {
            throw new IllegalArgumentException("expected a grid size of at least " + (workers + 1)
                    + " (a row for each of " + (workers + 1) + " ranks) but found " + size);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("expected at least 1 iteration but found " + maxIterations);
        }
    }

    @Override
    public String name() {
        return "jacobi";
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
        int rank = context.rank();
        if (!pipeline) {
            switch (rank) {
                case 0 -> {
                    return new Outcome(this, JacobiMaster.run(context.table().service(MasterToWorker.class, 1, 0),
                            context.table().service(MasterToWorker.class, 2, 0), size, maxIterations, variant,
                            context.progress(), context::sessionsOpen));
                }
                case 1 -> JacobiWorker.run(context.server(0), 0, 3, false, variant);   // north
                default -> JacobiWorker.run(context.server(0), 2, 3, true, variant);   // south
            }
            return null;
        }
        if (rank == 0) {
            return new Outcome(this, PipelineMaster.run(context.table().service(MasterToWorker.class, 1, 0), size,
                    ranks(), maxIterations, variant, context.progress()));
        }
        if (rank < workers) {
            PipelineWorker.run(context.server(0), context.table().service(MasterToWorker.class, rank + 1, 0), rank,
                    ranks(), variant);
        } else {
            JacobiWorker.run(context.server(0), rank, ranks(), true, variant);
        }
        return null;
    }

    /** A description of the configuration, for the summary. */
    public String describe() {
        String topology = pipeline ? "pipeline of a master and " + workers + " worker" + (workers == 1 ? "" : "s")
                + " (iteration chaining)" : "master and 2 workers (multicast outwhile)";
        return String.format(Locale.ROOT, "Jacobi %d×%d, at most %d iterations, %s, %s ghost points", size, size,
                maxIterations, topology, variant.name().toLowerCase(Locale.ROOT));
    }

    /**
     * Rank 0's result.
     *
     * @param program the configuration
     * @param solution the assembled grid and the iteration count
     */
    public record Outcome(JacobiProgram program, SequentialJacobi.Solution solution) implements RankProgram.Outcome {

        @Override
        public List<String> summary() {
            int n = solution.iterations();
            return List.of(program.describe(),
                    "  " + n + " iterations (" + (n < program.maxIterations() ? "converged: relative change below "
                            + Grid.TOLERANCE : "stopped at the maximum") + ")");
        }

        @Override
        public Verification verify() {
            SequentialJacobi.Solution reference = SequentialJacobi.solve(program.size(), program.maxIterations());
            return compare(solution, reference);
        }

        /** Compares a distributed solution with the sequential one: same iteration count, bitwise-equal grid. */
        static Verification compare(SequentialJacobi.Solution distributed, SequentialJacobi.Solution reference) {
            if (distributed.iterations() != reference.iterations()) {
                return new Verification(false, "expected " + reference.iterations()
                        + " iterations (sequential solve) but the distributed run did " + distributed.iterations());
            }
            if (distributed.rows().length != reference.rows().length) {
                return new Verification(false, "expected " + reference.rows().length + " rows but the distributed run"
                        + " assembled " + distributed.rows().length);
            }
            double worst = 0;
            int differing = 0;
            for (int i = 0; i < reference.rows().length; i++) {
                for (int j = 0; j < reference.rows()[i].length; j++) {
                    double a = distributed.rows()[i][j];
                    double b = reference.rows()[i][j];
                    if (Double.doubleToLongBits(a) != Double.doubleToLongBits(b)) {
                        differing++;
                        worst = Math.max(worst, Math.abs(a - b));
                    }
                }
            }
            if (differing > 0) {
                return new Verification(false, differing + " grid values differ from the sequential solve (largest"
                        + " difference " + worst + ")");
            }
            return new Verification(true, "bitwise equal to a sequential solve of the same grid ("
                    + reference.iterations() + " iterations)");
        }
    }
}
