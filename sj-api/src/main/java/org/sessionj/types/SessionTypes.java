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
 *
 * <p><b>Bounded work.</b> A protocol may come from a peer, so no operation here recurses once per
 * action or without a bound: sequences are lists, and types nest at most {@link #maxNesting()} levels
 * — the parser refuses deeper text with a positioned {@link ProtocolSyntaxException} (code
 * {@code SJT103}), and the operations below refuse deeper types built in code. Parsing, equality,
 * hashing, printing, duality, unfolding, well-formedness, expansion and subtyping use explicit stacks
 * or work lists, not the call stack; only JavaParser recurses, and it only sees short message types
 * of unusual shapes. Subtyping and state machines take time linear in the number of states they
 * compare.
 */
public final class SessionTypes {
    /** The default nesting limit: far above any real protocol (they nest a handful of levels). */
    public static final int DEFAULT_MAX_NESTING = 256;
    /**
     * The highest nesting limit that may be set: every operation is tested at this depth on a thread
     * with a 512 KiB stack (half the JVM's usual default).
     */
    public static final int MAX_NESTING_CEILING = 1000;
    /**
     * The system property that sets the nesting limit ({@value #DEFAULT_MAX_NESTING} when unset or not
     * a number; clamped to 1…{@value #MAX_NESTING_CEILING}). Read once, when this class initialises.
     */
    public static final String MAX_NESTING_PROPERTY = ProtocolParser.NESTING_PROPERTY;
    /** The most actions (nested ones included) {@link #expand} may produce (code {@code SJT304} beyond). */
    public static final long MAX_EXPANDED_SIZE = 1_000_000;

    private static final int MAX_NESTING = nestingFromProperty();

    private SessionTypes() {
    }

    /**
     * How deeply a type may nest ({@link SessionType#depth()}): {@value #DEFAULT_MAX_NESTING} unless the
     * system property {@value #MAX_NESTING_PROPERTY} says otherwise.
     */
    public static int maxNesting() {
        return MAX_NESTING;
    }

    private static int nestingFromProperty() {
        String value = System.getProperty(MAX_NESTING_PROPERTY);
        if (value == null) {
            return DEFAULT_MAX_NESTING;
        }
        try {
            return clampNesting(Integer.parseInt(value.strip()));
        } catch (NumberFormatException e) {
            return DEFAULT_MAX_NESTING;
        }
    }

    private static int clampNesting(int maxNesting) {
        return Math.max(1, Math.min(MAX_NESTING_CEILING, maxNesting));
    }

    /**
     * Parses SJ notation (whitespace, newlines, {@code //} and {@code /* *}{@code /} comments
     * allowed between tokens), nesting at most {@link #maxNesting()} levels. Does not check
     * well-formedness. Any text either parses or fails with a positioned
     * {@link ProtocolSyntaxException}; nothing else escapes.
     *
     * @throws ProtocolSyntaxException when the text is not SJ notation or nests too deeply
     */
    public static SessionType parse(String text) {
        return parse(text, MAX_NESTING);
    }

    /**
     * Parses like {@link #parse(String)} with a nesting limit of its own (clamped to
     * 1…{@value #MAX_NESTING_CEILING}).
     */
    public static SessionType parse(String text, int maxNesting) {
        return ProtocolParser.parse(text, clampNesting(maxNesting), false).type();
    }

    /** Parses like {@link #parse(String)} and keeps the offset of every node of the result. */
    public static ParsedProtocol parseWithPositions(String text) {
        return parseWithPositions(text, MAX_NESTING);
    }

    /** Parses like {@link #parse(String, int)} and keeps the offset of every node of the result. */
    public static ParsedProtocol parseWithPositions(String text, int maxNesting) {
        ProtocolParser.Result result = ProtocolParser.parse(text, clampNesting(maxNesting), true);
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
     * The notation of {@code type} with unfolded recursion folded back, for messages: where a
     * sequence starts with the unfolding of a {@code rec X[B]} that occurs in the type ({@code B} with
     * {@code rec X[B]} in place of {@code #X}, which is what remains of a recursive protocol after
     * one round), {@code rec X[B]} is written once, with {@code #X} inside, instead of the body followed
     * by the whole {@code rec} again. The result parses to a type {@link #equivalent} to {@code type};
     * types without unfolded recursion print as {@link #print} does.
     */
    public static String printFolded(SessionType type) {
        return Printer.printFolded(type);
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
     * @throws ProtocolException on an unknown protocol, a protocol that refers to itself, a
     *                           protocol that uses a recursion variable it does not bind, or a result
     *                           nesting deeper than {@link #maxNesting()} or larger than
     *                           {@link #MAX_EXPANDED_SIZE} actions
     */
    public static SessionType expand(SessionType type, ProtocolResolver resolver) {
        return new Expander(resolver, MAX_NESTING, MAX_EXPANDED_SIZE).expand(type);
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
        checkWellFormed(a);
        checkWellFormed(b);
        return Subtyping.compare(a, b, JavaSubtyping.EXACT, Subtyping.Mode.EQUIVALENT) == null;
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
        return wellFormednessProblems(type, NO_OFFSETS);
    }

    /**
     * Positions of nodes that are not from a parse: none. A class, not a lambda: a lambda is linked on first
     * use, in every fresh JVM and in every compilation (javac loads the processor afresh each time).
     */
    private static final ToIntFunction<Object> NO_OFFSETS = new ToIntFunction<>() {
        @Override
        public int applyAsInt(Object node) {
            return -1;
        }
    };

    static List<ProtocolProblem> wellFormednessProblems(SessionType type, ToIntFunction<Object> offsets) {
        return new WellFormedness(offsets, MAX_NESTING).check(type);
    }

    /** Fails with a {@link ProtocolException} naming the first problem when {@code type} is not well-formed. */
    public static void checkWellFormed(SessionType type) {
        throwIfProblems(wellFormednessProblems(type), null);
    }

    /** How many problems after the first a {@link ProtocolException} message names. */
    private static final int MAX_LISTED_PROBLEMS = 5;

    static void throwIfProblems(List<ProtocolProblem> problems, String text) {
        if (problems.isEmpty()) {
            return;
        }
        ProtocolProblem first = problems.get(0);
        StringBuilder detail = new StringBuilder("[").append(first.code()).append("] ").append(first.message());
        if (problems.size() > 1) {
            detail.append(" (and ").append(problems.size() - 1).append(" more: ");
            int listed = Math.min(problems.size(), 1 + MAX_LISTED_PROBLEMS);
            for (int i = 1; i < listed; i++) {
                detail.append(i > 1 ? "; " : "").append('[').append(problems.get(i).code()).append("] ")
                        .append(problems.get(i).message());
            }
            if (listed < problems.size()) {
                detail.append("; …");
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
