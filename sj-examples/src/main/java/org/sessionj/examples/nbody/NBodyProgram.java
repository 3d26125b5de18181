package org.sessionj.examples.nbody;

import java.util.List;
import java.util.Locale;
import org.sessionj.examples.deploy.RankContext;
import org.sessionj.examples.deploy.RankProgram;
import org.sessionj.examples.jacobi.Variant;

/**
 * n-Body on a ring of {@code units} units, one per rank: rank 0 is the first unit, rank
 * {@code units − 1} the last. Rank 0 collects the final particles and verifies them against a
 * sequential simulation.
 *
 * @param units the ring size p (at least 2)
 * @param bodies the total number of bodies, split into contiguous blocks
 * @param steps simulation steps
 * @param variant how particle sets travel
 * @param seed the initial conditions
 */
public record NBodyProgram(int units, int bodies, int steps, Variant variant, long seed)
        implements RankProgram<NBodyProgram.Outcome> {
    /** The largest acceptable distance between a position of the ring and of the sequential run. */
    public static final double TOLERANCE = 1e-9;

    /** Validates the configuration. */
    public NBodyProgram {
        if (units < 2) {
            throw new IllegalArgumentException("expected a ring of at least 2 workers but found " + units);
        }
        if (bodies < units) {
            throw new IllegalArgumentException("expected at least one body per worker (" + units + ") but found "
                    + bodies);
        }
        if (steps < 0) {
            throw new IllegalArgumentException("expected a non-negative number of steps but found " + steps);
        }
    }

    @Override
    public String name() {
        return "nbody";
    }

    @Override
    public int ranks() {
        return units;
    }

    @Override
    public List<Class<?>> accepts(int rank) {
        return rank == 0 ? List.of(FirstFromLast.class, FirstFromResult.class) : List.of(ServerSide.class);
    }

    @Override
    public Outcome run(RankContext context) {
        int rank = context.rank();
        Bodies own = Bodies.of(bodies, seed, Bodies.firstOf(bodies, rank, units), Bodies.firstOf(bodies, rank + 1, units));
        if (rank == 0) {
            RingUnit.first(context.table().service(ClientSide.class, 1, 0), context.server(0), own, units, steps, variant,
                    context.progress(), context::sessionsOpen);
            return new Outcome(this, RingUnit.collect(context.server(1), own, units));
        }
        RingUnit.report(context.table().service(ResultToFirst.class, 0, 1), rank, own, () -> {
            if (rank < units - 1) {
                RingUnit.middle(context.server(0), context.table().service(ClientSide.class, rank + 1, 0), own, variant);
            } else {
                RingUnit.last(context.server(0), context.table().service(LastToFirst.class, 0, 0), own, variant);
            }
        });
        return null;
    }

    /** A description of the configuration, for the summary. */
    public String describe() {
        return String.format(Locale.ROOT, "n-Body: %d bodies on a ring of %d workers, %d steps, %s particle forwarding",
                bodies, units, steps, variant.name().toLowerCase(Locale.ROOT));
    }

    /**
     * Rank 0's result.
     *
     * @param program the configuration
     * @param blocks every unit's final particles, by rank
     */
    public record Outcome(NBodyProgram program, Particle[][] blocks) implements RankProgram.Outcome {

        @Override
        public List<String> summary() {
            return List.of(program.describe());
        }

        @Override
        public Verification verify() {
            return compare(blocks, SequentialNBody.simulate(program.bodies(), program.seed(), program.steps()));
        }

        /** Compares the ring's particles, block after block, with the sequential run's. */
        static Verification compare(Particle[][] blocks, Particle[] reference) {
            int at = 0;
            double worst = 0;
            for (Particle[] block : blocks) {
                for (Particle p : block) {
                    if (at >= reference.length) {
                        return new Verification(false, "expected " + reference.length + " bodies but the ring has more");
                    }
                    Particle q = reference[at++];
                    worst = Math.max(worst, Math.max(Math.abs(p.x() - q.x()),
                            Math.max(Math.abs(p.y() - q.y()), Math.abs(p.z() - q.z()))));
                }
            }
            if (at != reference.length) {
                return new Verification(false, "expected " + reference.length + " bodies but the ring has " + at);
            }
            boolean close = worst <= TOLERANCE;
            return new Verification(close, String.format(Locale.ROOT,
                    "largest position difference from a sequential simulation %.3g (%s %.0e)", worst,
                    close ? "within" : "NOT within", TOLERANCE));
        }
    }
}
