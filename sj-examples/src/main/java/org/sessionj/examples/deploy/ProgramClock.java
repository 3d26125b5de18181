package org.sessionj.examples.deploy;

/**
 * Where rank 0's timed region begins. By default at the barrier that ends the ranks' connecting
 * ({@link Connecting}); a program whose structure tells it when all its own sessions are open (its
 * requests and accepts returned, or a message went round all of them, as the n-Body ring's token
 * does) marks that point ({@link RankContext#sessionsOpen}), and the clock starts there instead —
 * the counterpart of an MPI program's clock, which starts once {@code MPI_Init} has connected every
 * rank and a barrier has passed. The time moved out of the timed region is reported apart, and stays
 * in the whole job.
 */
public final class ProgramClock {
    private final long ready;
    private long opened;

    /** A clock whose default start is {@code ready} (System.nanoTime). */
    ProgramClock(long ready) {
        this.ready = ready;
    }

    /** The program's sessions are open now; only the first mark counts. */
    synchronized void sessionsOpen() {
        if (opened == 0) {
            opened = System.nanoTime();
        }
    }

    /** When the timed region began: the mark, or the default start. */
    synchronized long start() {
        return opened != 0 ? opened : ready;
    }

    /** The time between the default start and the mark; 0 without a mark. */
    synchronized long openingNanos() {
        return opened != 0 ? opened - ready : 0;
    }
}
