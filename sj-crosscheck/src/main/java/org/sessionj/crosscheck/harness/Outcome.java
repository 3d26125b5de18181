package org.sessionj.crosscheck.harness;

import org.sessionj.api.SJException;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.crosscheck.program.Ctl;

/**
 * How a run of a program against its peer ended, side by side.
 *
 * @param program how the (possibly mutated) program ended
 * @param peer how the generated peer ended
 */
public record Outcome(End program, End peer) {

    /** How one side ended. */
    public enum Kind {
        /** Returned normally. */
        OK,
        /** The runtime monitor rejected an action: {@link SJProtocolViolationException}. */
        VIOLATION,
        /** The initiation found the two sides' types incompatible. */
        INCOMPATIBLE,
        /**
         * Waited for the other side past the timeout ({@link SJTimeoutException}), never finished, or looped
         * without communicating ({@link Ctl.Runaway}).
         */
        TIMEOUT,
        /** The session failed: the other side ended it early, or it was used after it ended. */
        SESSION_FAILED,
        /** A received value was not of the type the program assigned it to (a cast or unboxing failed). */
        TYPE_ERROR,
        /** Anything else (a bug of the harness, the generator or the runtime: reported). */
        OTHER
    }

    /** One side's end: its kind and the exception's description (null when OK). */
    public record End(Kind kind, String detail) {
        public static final End OK = new End(Kind.OK, null);
        public static final End UNFINISHED = new End(Kind.TIMEOUT, "did not finish before the deadline");

        /** The end a side's exception means. */
        public static End of(Throwable failure) {
            if (failure == null) {
                return OK;
            }
            Kind kind;
            if (failure instanceof SJProtocolViolationException) {
                kind = Kind.VIOLATION;
            } else if (failure instanceof SJIncompatibleSessionException) {
                kind = Kind.INCOMPATIBLE;
            } else if (failure instanceof SJTimeoutException || failure instanceof Ctl.Runaway) {
                kind = Kind.TIMEOUT;
            } else if (failure instanceof SJException) {
                kind = Kind.SESSION_FAILED;
            } else if (failure instanceof ClassCastException || failure instanceof NullPointerException) {
                kind = Kind.TYPE_ERROR;
            } else {
                kind = Kind.OTHER;
            }
            return new End(kind, failure.getClass().getSimpleName() + ": " + failure.getMessage());
        }

        @Override
        public String toString() {
            return detail == null ? kind.toString() : kind + " (" + detail + ")";
        }
    }

    /** Whether both sides returned normally. */
    public boolean ok() {
        return program.kind() == Kind.OK && peer.kind() == Kind.OK;
    }

    /** Whether the run shows nothing but waiting: a desync seen only as a timeout (worth confirming with a longer one). */
    public boolean onlyTimeouts() {
        return !ok() && (program.kind() == Kind.OK || program.kind() == Kind.TIMEOUT || program.kind() == Kind.SESSION_FAILED)
                && (peer.kind() == Kind.OK || peer.kind() == Kind.TIMEOUT || peer.kind() == Kind.SESSION_FAILED)
                && (program.kind() == Kind.TIMEOUT || peer.kind() == Kind.TIMEOUT);
    }

    /** The most telling of the two ends, for summaries: a monitor verdict over a consequence of it. */
    public Kind verdict() {
        for (Kind kind : new Kind[] {Kind.VIOLATION, Kind.INCOMPATIBLE, Kind.TYPE_ERROR, Kind.OTHER,
                Kind.SESSION_FAILED, Kind.TIMEOUT}) {
            if (program.kind() == kind || peer.kind() == kind) {
                return kind;
            }
        }
        return Kind.OK;
    }

    @Override
    public String toString() {
        return "program " + program + ", peer " + peer;
    }
}
