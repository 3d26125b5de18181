package org.sessionj.types;

import java.util.List;
import java.util.function.ToIntFunction;
import org.sessionj.types.internal.Dot;
import org.sessionj.types.internal.Duality;
import org.sessionj.types.internal.Expander;
import org.sessionj.types.internal.Printer;
import org.sessionj.types.internal.ProtocolParser;
import org.sessionj.types.internal.Subtyping;
import org.sessionj.types.internal.WellFormedness;

/**
 * Entry point to the session-type model: parsing, printing, duality, expansion of protocol
 * references, subtyping, equivalence, compatibility, well-formedness and state machines.
 * The notation and the rules are documented in {@code docs/session-types.md}.
 */
public final class SessionTypes {
    private SessionTypes() {
    }

    /**
     * Parses SJ notation (whitespace, newlines, {@code //} and {@code /* *}{@code /} comments
     * allowed between tokens). Does not check well-formedness.
     *
     * @throws ProtocolSyntaxException when the text is not SJ notation
     */
    public static SessionType parse(String text) {
        return ProtocolParser.parse(text).type();
    }

    /** Parses like {@link #parse} and keeps the offset of every node of the result. */
    public static ParsedProtocol parseWithPositions(String text) {
        ProtocolParser.Result result = ProtocolParser.parse(text);
        return new ParsedProtocol(text, result.type(), result.offsets());
    }

    /**
     * The canonical SJ notation of {@code type}: {@code parse(print(t)).equals(t)} for every type
     * whose labels, variables and names are Java identifiers.
     */
    public static String print(SessionType type) {
        return Printer.print(type);
    }

    /**
     * The dual type: sends and receives, selections and branchings, outwhile and inwhile,
     * {@code cbegin} and {@code sbegin}, {@code @(P)} and {@code ^(P)} swapped; message payloads
     * unchanged.
     */
    public static SessionType dual(SessionType type) {
        return Duality.dual(type);
    }

    /**
     * {@code type} with every {@code @(P)} replaced by P's (expanded) type and every {@code ^(P)}
     * by its dual, transitively, also inside message payloads.
     *
     * @throws ProtocolException on an unknown protocol, a protocol that refers to itself, or a
     *                           protocol that uses a recursion variable it does not bind
     */
    public static SessionType expand(SessionType type, ProtocolResolver resolver) {
        return new Expander(resolver).expand(type);
    }

    /**
     * Whether a party following {@code sub} can be used where one following {@code sup} is
     * expected: {@code sub} selects fewer labels and offers more branches, sends subtypes and
     * receives supertypes (through {@code rel}); recursion is compared up to unfolding. Protocol
     * references are compared by name (expand first to compare their contents).
     *
     * @throws ProtocolException when either type is not well-formed
     */
    public static boolean isSubtype(SessionType sub, SessionType sup, JavaSubtyping rel) {
        checkWellFormed(sub);
        checkWellFormed(sup);
        return Subtyping.isSubtype(sub, sup, rel);
    }

    /**
     * Whether the two types describe the same behaviour: equal up to unfolding of recursion (and
     * renaming of recursion variables), message types compared exactly.
     *
     * @throws ProtocolException when either type is not well-formed
     */
    public static boolean equivalent(SessionType a, SessionType b) {
        return isSubtype(a, b, JavaSubtyping.EXACT) && Subtyping.isSubtype(b, a, JavaSubtyping.EXACT);
    }

    /**
     * The initiation check: whether a requester following {@code requester} may run a session
     * with an accepter following {@code accepter}. They must start with {@code cbegin} and
     * {@code sbegin} respectively (or both without a begin), and {@code requester} must be a
     * subtype of the dual of {@code accepter} (equivalently, {@code accepter} a subtype of the
     * dual of {@code requester}).
     *
     * @throws ProtocolException when either type is not well-formed
     */
    public static boolean compatible(SessionType requester, SessionType accepter, JavaSubtyping rel) {
        Side requesterSide = beginOf(requester);
        Side accepterSide = beginOf(accepter);
        if (requesterSide != null || accepterSide != null) {
            if (requesterSide != Side.REQUEST || accepterSide != Side.ACCEPT) {
                checkWellFormed(requester);
                checkWellFormed(accepter);
                return false;
            }
        }
        return isSubtype(requester, dual(accepter), rel);
    }

    private static Side beginOf(SessionType type) {
        return !type.isEnd() && type.head() instanceof Action.Begin begin ? begin.side() : null;
    }

    /** The well-formedness problems of {@code type} (offsets -1), in the order they occur. */
    public static List<ProtocolProblem> wellFormednessProblems(SessionType type) {
        return wellFormednessProblems(type, node -> -1);
    }

    static List<ProtocolProblem> wellFormednessProblems(SessionType type, ToIntFunction<Object> offsets) {
        return new WellFormedness(offsets).check(type);
    }

    /** Fails with a {@link ProtocolException} naming the first problem when {@code type} is not well-formed. */
    public static void checkWellFormed(SessionType type) {
        throwIfProblems(wellFormednessProblems(type), null);
    }

    static void throwIfProblems(List<ProtocolProblem> problems, String text) {
        if (problems.isEmpty()) {
            return;
        }
        ProtocolProblem first = problems.get(0);
        StringBuilder detail = new StringBuilder("[").append(first.code()).append("] ").append(first.message());
        if (problems.size() > 1) {
            detail.append(" (and ").append(problems.size() - 1).append(" more: ");
            for (int i = 1; i < problems.size(); i++) {
                detail.append(i > 1 ? "; " : "").append('[').append(problems.get(i).code()).append("] ")
                        .append(problems.get(i).message());
            }
            detail.append(')');
        }
        throw new ProtocolException(first.kind(), detail.toString(), "a well-formed session type",
                first.message(), text, first.offset());
    }

    /**
     * A Graphviz DOT digraph of the type's state machine: one state per position in the type after
     * unfolding recursion, edges labelled with actions in SJ notation (selections and branchings
     * as {@code !{L}}/{@code ?{L}}, loop decisions as {@code ![iterate]}/{@code ![exit]} and
     * {@code ?[iterate]}/{@code ?[exit]}), the terminated state drawn as a double circle.
     *
     * @throws ProtocolException when the type is not well-formed
     */
    public static String toDot(SessionType type) {
        checkWellFormed(type);
        return Dot.toDot(type);
    }
}
