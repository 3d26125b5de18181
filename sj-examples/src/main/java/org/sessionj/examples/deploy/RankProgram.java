package org.sessionj.examples.deploy;

import java.util.List;

/**
 * One parallel program, written once for every deployment: each rank opens the server sockets
 * listed by {@link #accepts}, the deployment exchanges their addresses, then {@link #run} plays the
 * rank's part. Rank 0 returns the result; the other ranks return null.
 *
 * @param <R> the result rank 0 produces
 */
public interface RankProgram<R extends RankProgram.Outcome> {

    /** The program's name, for messages. */
    String name();

    /** The number of ranks the program needs. */
    int ranks();

    /** The protocols of the server sockets {@code rank} opens (each on a free port), in order. */
    List<Class<?>> accepts(int rank);

    /** Plays {@code context.rank()}'s part; rank 0 returns the result, the others null. */
    R run(RankContext context);

    /** What rank 0 produced. */
    interface Outcome {
        /** What was computed, as lines for the summary. */
        List<String> summary();

        /** Checks the result against an independent computation (may take a while: a sequential run). */
        Verification verify();
    }

    /**
     * The verdict on a result.
     *
     * @param passed whether the result is right
     * @param description what was compared and how close it came
     */
    record Verification(boolean passed, String description) {
    }
}
