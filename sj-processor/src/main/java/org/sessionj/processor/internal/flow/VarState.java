package org.sessionj.processor.internal.flow;

import org.sessionj.types.SessionType;

/**
 * What the flow analysis knows about one tracked variable at one program point. Values are
 * immutable; {@link FlowState} maps variables to them and merges them at joins.
 */
public sealed interface VarState {

    /** Declared but not assigned yet. */
    record Unassigned() implements VarState {
        // equals and hashCode written out (as Live's): the generated ones link method handles cold
        @Override
        public boolean equals(Object other) {
            return other instanceof Unassigned;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /**
     * A live session: {@code remaining} is what is left of its type, {@code iterations} how many
     * session iterations ({@code ![..]*}/{@code ?[..]*}) of this socket enclose the current point
     * (inside one, {@code remaining} is what is left of the iteration body). {@code selectedBy} is set
     * on a session just taken from a typed selector — the selector (an opaque key: the checker's
     * element for its variable) — and {@code remaining} is then its set written as a branch over the
     * member names, which no peer sends a label for, so it is never the same state as a real branch
     * of that shape; null on every other session.
     */
    record Live(SessionType remaining, int iterations, Object selectedBy) implements VarState {
        /** A live session that is not a selector's set-typed one. */
        public Live(SessionType remaining, int iterations) {
            this(remaining, iterations, null);
        }

        /*
         * Written out rather than generated: states are compared at every join and loop check, and the
         * record's generated equals runs through method handles that start cold in every compilation.
         */
        @Override
        public boolean equals(Object other) {
            return other instanceof Live that && iterations == that.iterations && remaining.equals(that.remaining)
                    && java.util.Objects.equals(selectedBy, that.selectedBy);
        }

        @Override
        public int hashCode() {
            return (remaining.hashCode() * 31 + iterations) * 31 + java.util.Objects.hashCode(selectedBy);
        }

        /** Whether this is a set-typed session just taken from a typed selector. */
        public boolean selected() {
            return selectedBy != null;
        }

        /** Whether the session may end here: nothing remains and no iteration is open. */
        public boolean complete() {
            return remaining.isEnd() && iterations == 0;
        }
    }

    /**
     * A socket variable that holds the live {@code session} on some paths and {@code null} on others, where
     * they meet (adv13 A8: {@code SJSocket t = null;} and a request on one branch, or a connect-retry loop).
     * Only a null test may read it: its non-null branch sees {@code session}, its null branch null; any
     * other use is SJ025, and leaving its scope with {@code session} incomplete is SJ024. {@code nullHow}
     * says where the null came from, for diagnostics.
     */
    record Nullable(Live session, String nullHow) implements VarState {
        // equals and hashCode written out (as Live's): the generated ones link method handles cold
        @Override
        public boolean equals(Object other) {
            return other instanceof Nullable that && session.equals(that.session)
                    && java.util.Objects.equals(nullHow, that.nullHow);
        }

        @Override
        public int hashCode() {
            return session.hashCode() * 31 + java.util.Objects.hashCode(nullHow);
        }
    }

    /**
     * Whether a socket variable with no session to finish holds a socket object (an ended session),
     * {@code null}, or either, depending on the path (adv10 F17: {@code SJSocket t = null;}, {@code t = null}).
     */
    enum Nullness {
        /** It holds a socket object (closed, delegated, failed...): never null. */
        SOCKET,
        /** It holds {@code null}: there is no session at all. */
        NULL,
        /** Null on some paths, an ended session's socket on others. */
        MAYBE
    }

    /**
     * The value was moved out (delegated, closed, or otherwise handed over); {@code how} says how and
     * where, for diagnostics. The variable may not be used again until reassigned. A socket variable
     * holding {@code null} is in this state too, with {@code nullness} {@link Nullness#NULL} (no session:
     * an action on it is as wrong as on a moved one), or {@link Nullness#MAYBE} where a path with null
     * meets one where the session ended ({@code how} then describes the ended session).
     */
    record Moved(String how, Nullness nullness) implements VarState {
        /** A value moved out: the variable still references it (a socket object, never null). */
        public Moved(String how) {
            this(how, Nullness.SOCKET);
        }

        // equals and hashCode written out (as Live's): the generated ones link method handles cold
        @Override
        public boolean equals(Object other) {
            return other instanceof Moved that && nullness == that.nullness && java.util.Objects.equals(how, that.how);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hashCode(how) * 31 + nullness.ordinal();
        }

        /** Whether the variable certainly holds null. */
        public boolean isNull() {
            return nullness == Nullness.NULL;
        }

        /** The description for diagnostics ("closed on line 7", "closed on line 7 or set to null"). */
        public String text() {
            return nullness == Nullness.MAYBE ? how + " (or it holds null)" : how;
        }
    }

    /**
     * A session an exception may have left at any of several points of its type (in a catch block, or
     * after it): {@code how} says which states and where. Using it, ending it or joining it with a path
     * where it is in one known state is an error; a path that leaves the method from here is fine.
     * {@code closable}: every one of those states is a session this code still owns (live, failed or
     * closed), so a finally block may close it as try-with-resources would. {@code mayBeNull}: on some
     * of those paths the variable holds null instead (before its request, F17's {@code SJSocket t = null;}):
     * only the branch of {@code if (t != null)} may close it; {@code how} and {@code closable} describe
     * the sessions. {@code incomplete}: one of those states may be a live session not complete yet, which
     * an exception leaving the variable's scope from here would abandon (SJ024, adv15 A10).
     */
    record Unknown(String how, boolean closable, boolean mayBeNull, boolean incomplete) implements VarState {
        /** An unknown state that a finally block may not close (some state may belong to someone else). */
        public Unknown(String how) {
            this(how, false, false, true);
        }

        /** An unknown state among sessions (never null), one of which may be incomplete. */
        public Unknown(String how, boolean closable) {
            this(how, closable, false, true);
        }

        /** This unknown state, null or not ({@code mayBeNull}). */
        public Unknown withMayBeNull(boolean mayBeNull, boolean closable) {
            return new Unknown(how, closable, mayBeNull, incomplete);
        }

        // equals and hashCode written out (as Live's): the generated ones link method handles cold
        @Override
        public boolean equals(Object other) {
            return other instanceof Unknown that && closable == that.closable && mayBeNull == that.mayBeNull
                    && incomplete == that.incomplete && java.util.Objects.equals(how, that.how);
        }

        @Override
        public int hashCode() {
            return ((java.util.Objects.hashCode(how) * 31 + (closable ? 1 : 0)) * 2 + (mayBeNull ? 1 : 0)) * 2
                    + (incomplete ? 1 : 0);
        }
    }

    /** A {@code @NoAlias} variable that holds the only reference to its value. */
    record Owned() implements VarState {
        // equals and hashCode written out (as Live's): the generated ones link method handles cold
        @Override
        public boolean equals(Object other) {
            return other instanceof Owned;
        }

        @Override
        public int hashCode() {
            return 2;
        }
    }

    /** An error was already reported for this variable: stop checking it (no cascades). */
    record Failed() implements VarState {
        // equals and hashCode written out (as Live's): the generated ones link method handles cold
        @Override
        public boolean equals(Object other) {
            return other instanceof Failed;
        }

        @Override
        public int hashCode() {
            return 3;
        }
    }

    /**
     * A service or server socket. {@code protocol} is its full protocol type (with its begin), or
     * null when it is not known at compile time; {@code protocolName} names it for diagnostics.
     */
    record Endpoint(SessionType protocol, String protocolName) implements VarState {
        /** An endpoint whose protocol is not known. */
        public static Endpoint unknown() {
            return new Endpoint(null, null);
        }

        // Written out rather than generated, as Live's: compared at every join and loop check.
        @Override
        public boolean equals(Object other) {
            return other instanceof Endpoint that && java.util.Objects.equals(protocol, that.protocol)
                    && java.util.Objects.equals(protocolName, that.protocolName);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hashCode(protocol) * 31 + java.util.Objects.hashCode(protocolName);
        }
    }

    /** Shared instance of {@link Failed}. */
    VarState FAILED = new Failed();
    /** Shared instance of {@link Owned}. */
    VarState OWNED = new Owned();
    /** Shared instance of {@link Unassigned}. */
    VarState UNASSIGNED = new Unassigned();
}
