package org.sessionj.crosscheck.harness;

import java.util.List;

/**
 * The two verdicts on one mutant.
 *
 * @param caseSeed the seed of the generated case (regenerates program, peer and mutants)
 * @param index the mutant's index among the case's mutants
 * @param codes the processor's error codes on the mutant (empty: accepted)
 * @param outcome how it ran against the peer (null when it was not valid Java and never ran)
 * @param source the mutant's Java source
 */
public record MutantResult(long caseSeed, int index, String signature, String description, List<String> codes,
        boolean javaError, Outcome outcome, String source) {

    public boolean rejected() {
        return !codes.isEmpty();
    }

    /** Whether the run showed the mutant wrong: a side failed or waited in vain. */
    public boolean caughtAtRunTime() {
        return outcome != null && !outcome.ok();
    }

    /** Caught at run time but accepted at compile time: a hole in the checker. */
    public boolean escape() {
        return caughtAtRunTime() && !rejected() && !javaError;
    }
}
