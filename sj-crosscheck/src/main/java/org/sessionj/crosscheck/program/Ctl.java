package org.sessionj.crosscheck.program;

import java.util.SplittableRandom;

/**
 * The decisions of a generated program at run time: loop iterations and selected labels come from a
 * seeded random source and a budget, so a run is deterministic and always ends (once the budget is
 * spent every loop stops and every selection takes an arm that leaves its recursion). Generated code
 * calls it as {@code c}; the checker sees opaque method calls, as it would in a user's program.
 */
public final class Ctl {
    /** More decisions than any terminating run of a generated program makes: a mutant looping without end. */
    private static final int RUNAWAY = 100_000;

    private final SplittableRandom random;
    private int budget;
    private int calls;

    /**
     * Thrown by every decision once a run has made {@link #RUNAWAY} of them or its thread was interrupted:
     * stops a mutant that loops without communicating (no mutation's {@code catch} catches it).
     */
    public static final class Runaway extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Runaway(String message) {
            super(message);
        }
    }

    /** Decisions drawn from {@code seed}; at most {@code budget} loop iterations and recursions in all. */
    public Ctl(long seed, int budget) {
        this.random = new SplittableRandom(seed);
        this.budget = budget;
    }

    /** Whether a loop iterates once more. */
    public boolean more() {
        tick();
        if (budget <= 0 || random.nextInt(3) == 0) {
            return false;
        }
        budget--;
        return true;
    }

    /**
     * The arm a selection of {@code arms} arms takes: any arm while the budget lasts (taking an arm that
     * recurses spends it), else one whose bit is set in {@code leaving}.
     */
    public int choose(int arms, int leaving) {
        tick();
        if (leaving == (1 << arms) - 1) {
            return random.nextInt(arms);
        }
        if (budget > 0) {
            int arm = random.nextInt(arms);
            if ((leaving & (1 << arm)) == 0) {
                budget--;
            }
            return arm;
        }
        int arm = random.nextInt(arms);
        while ((leaving & (1 << arm)) == 0) {
            arm = (arm + 1) % arms;
        }
        return arm;
    }

    private void tick() {
        if (++calls > RUNAWAY || Thread.currentThread().isInterrupted()) {
            throw new Runaway(calls > RUNAWAY ? "more than " + RUNAWAY + " decisions: the program loops without end"
                    : "interrupted: the run is past its deadline");
        }
    }

    /** {@code value}, opaque to a compiler's constant folding. */
    public boolean flag(boolean value) {
        tick();
        return value;
    }

    /** Throws {@link IllegalStateException} when {@code value}: the throwing point a mutation puts into a try. */
    public void boom(boolean value) {
        tick();
        if (value) {
            throw new IllegalStateException("boom");
        }
    }
}
