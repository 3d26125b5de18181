package org.sessionj.examples.deploy;

/** Where rank 0 reports how far a run has got (for a progress bar). */
@FunctionalInterface
public interface Progress {
    /** Reports nothing. */
    Progress NONE = (done, total) -> { };

    /** {@code done} of {@code total} units of work are finished. */
    void update(long done, long total);
}
