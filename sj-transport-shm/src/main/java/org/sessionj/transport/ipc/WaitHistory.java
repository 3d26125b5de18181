package org.sessionj.transport.ipc;

/**
 * How long one reader's recent reads waited for their frame, to decide whether a longer spin would
 * likely end with the frame: an average that weighs each new wait by a quarter ({@code recent +=
 * (wait - recent) / 4}). A reader spins long only while that average is within its bound; waits seen
 * after sleeping keep updating it, so once the writer answers quickly again the spin comes back, and
 * a writer that is far away (a long computation between messages) soon stops it. Touched only by the
 * reading thread, inside a read.
 */
final class WaitHistory {
    private final long boundNanos;
    private long recentNanos;

    /** A history for spins of at most {@code boundNanos} (0: never). */
    WaitHistory(long boundNanos) {
        this.boundNanos = boundNanos;
    }

    /** Whether the next empty read should spin, up to {@link #bound}. */
    boolean spinWanted() {
        return boundNanos > 0 && recentNanos <= boundNanos;
    }

    /** The longest spin, in nanoseconds. */
    long bound() {
        return boundNanos;
    }

    /** A read waited {@code nanos} for its frame (from finding the ring empty to having it). */
    void waited(long nanos) {
        recentNanos += (Math.max(0, nanos) - recentNanos) / 4;
    }

    /** The recent average wait (tests). */
    long recent() {
        return recentNanos;
    }
}
