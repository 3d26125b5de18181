package org.sessionj.types;

import java.util.Objects;

/**
 * One well-formedness problem of a session type.
 *
 * @param kind what is wrong; {@code kind.code()} is a stable code
 * @param message a sentence naming the offending construct
 * @param offset the 0-based offset of the offending construct in the parsed text, or -1 when the
 *               type was not parsed from text (see {@link SessionTypes#parseWithPositions})
 */
public record ProtocolProblem(Kind kind, String message, int offset) {

    public ProtocolProblem {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    /** The stable code, e.g. {@code SJT201}. */
    public String code() {
        return kind.code();
    }

    /** Every kind of protocol problem, each with a stable code (documented in docs/session-types.md). */
    public enum Kind {
        /** The text is not SJ notation. */
        SYNTAX("SJT100"),
        /** A label occurs twice in one choice. */
        DUPLICATE_LABEL("SJT101"),
        /** A message type is not an acceptable Java type (wildcard, void, annotation, ...). */
        INVALID_MESSAGE_TYPE("SJT102"),
        /** The type nests deeper than {@link SessionTypes#maxNesting()} (also after expansion). */
        NESTING_TOO_DEEP("SJT103"),
        /** A session set names the same member twice ({@code {!<int>, !<int>}}). */
        DUPLICATE_MEMBER("SJT104"),
        /** A session set with no members (<code>{</code>}). */
        EMPTY_SET("SJT208"),
        /** {@code #X} with no enclosing {@code rec X[…]}. */
        UNBOUND_VARIABLE("SJT201"),
        /** {@code #X} after (outside) the {@code rec X[…]} that binds it. */
        ESCAPING_VARIABLE("SJT202"),
        /** {@code #X} inside a message payload, bound outside it (a payload is a separate session). */
        VARIABLE_IN_PAYLOAD("SJT203"),
        /** {@code #X} reachable from its {@code rec X[} without any communication ({@code rec X[#X]}). */
        UNGUARDED_RECURSION("SJT204"),
        /** {@code #X} followed by more actions of its {@code rec}, or inside a loop body. */
        NON_TAIL_RECURSION("SJT205"),
        /** {@code cbegin}/{@code sbegin} anywhere but first (or {@code sbegin} starting a payload). */
        MISPLACED_BEGIN("SJT206"),
        /** A choice with no labels. */
        EMPTY_CHOICE("SJT207"),
        /** {@code @(P)}/{@code ^(P)} names a protocol the resolver does not know. */
        UNKNOWN_PROTOCOL("SJT301"),
        /** A protocol refers to itself, directly or through others. */
        CYCLIC_PROTOCOL("SJT302"),
        /** A referenced protocol uses a recursion variable it does not bind. */
        OPEN_PROTOCOL("SJT303"),
        /** Inlining protocol references would make a type of more than {@link SessionTypes#MAX_EXPANDED_SIZE} actions. */
        EXPANSION_TOO_LARGE("SJT304");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        /** The stable code. */
        public String code() {
            return code;
        }
    }
}
