package org.sessionj.types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.sessionj.types.internal.Printer;
import org.sessionj.types.internal.SourceText;
import org.sessionj.types.internal.Subtyping;
import org.sessionj.types.internal.Unfolding;

/**
 * Where two session types first part, for messages that show the differing part first: the steps
 * both take before they part ({@link #path()}), what the expected type does from there and what the
 * found type does instead (each printed {@linkplain SessionTypes#printFolded folded} and cut to
 * {@value #MAX_PART} characters, so a huge type cannot make a huge message), and why the found step is
 * not acceptable ({@link #reason()}).
 *
 * <p>"First" is in written order: the pairs of states are compared depth-first, a message's session
 * payload before what follows the message, choice labels in the expected type's order. Recursion is
 * compared up to unfolding, so a path may pass through a {@code rec} any number of times but never
 * repeats a pair of states.
 *
 * <pre>{@code
 * TypeDiff.between(parse("!<int>.?{GET: ?(String), QUIT: }"), parse("!<int>.?{GET: ?(int), QUIT: }"))
 *   .get().toString()
 * // after !<int>.?{GET}: expected ?(String) but found ?(int): message type int where String is expected
 * }</pre>
 *
 * @param path     the steps both types take before they part, in order: actions in SJ notation,
 *                 choices as {@code !{LABEL}} or {@code ?{LABEL}}, loop decisions as {@code ![iterate]},
 *                 {@code ?[exit]}, and {@code payload of !<…>} where the comparison enters a message's
 *                 session payload; empty when they differ at once (the whole path, however long:
 *                 {@link #pathText()} shortens it)
 * @param expected the expected type from where they part ({@code end} when it ends there)
 * @param found    the found type from the same place
 * @param reason   a sentence naming what was expected and what was found
 */
public record TypeDiff(List<String> path, String expected, String found, String reason) {
    /** The longest text of {@link #expected} and {@link #found}; longer ones end in {@code …}. */
    public static final int MAX_PART = 200;
    /** The most steps {@link #pathText()} shows. */
    public static final int MAX_PATH_SHOWN = 16;

    public TypeDiff {
        path = List.copyOf(path);
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(found, "found");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * Where {@code found} first fails to be usable in place of {@code expected} ({@code found ≤ expected}
     * in {@link SessionTypes#isSubtype}), or empty when it is usable.
     *
     * @throws ProtocolException when either type is not well-formed
     */
    public static Optional<TypeDiff> subtype(SessionType found, SessionType expected, JavaSubtyping rel) {
        SessionTypes.checkWellFormed(found);
        SessionTypes.checkWellFormed(expected);
        return Optional.ofNullable(of(Subtyping.compare(found, expected, rel, Subtyping.Mode.SUBTYPE)));
    }

    /**
     * Where two types first behave differently ({@link SessionTypes#equivalent} is false), or empty
     * when they are equivalent.
     *
     * @throws ProtocolException when either type is not well-formed
     */
    public static Optional<TypeDiff> between(SessionType expected, SessionType found) {
        SessionTypes.checkWellFormed(found);
        SessionTypes.checkWellFormed(expected);
        return Optional.ofNullable(of(Subtyping.compare(found, expected, JavaSubtyping.EXACT,
                Subtyping.Mode.EQUIVALENT)));
    }

    /**
     * Why a requester of type {@code requester} may not run a session with an accepter of type
     * {@code accepter} ({@link SessionTypes#compatible} is false), or empty when it may. The diff is
     * seen from the requester: {@link #expected} is what the accepter's type lets a requester do (its
     * dual), {@link #found} what the requester's type does.
     *
     * @throws ProtocolException when either type is not well-formed
     */
    public static Optional<TypeDiff> compatibility(SessionType requester, SessionType accepter, JavaSubtyping rel) {
        SessionTypes.checkWellFormed(requester);
        SessionTypes.checkWellFormed(accepter);
        if (!SessionTypes.compatible(requester, accepter, rel)) {
            Side requesterSide = begin(requester);
            Side accepterSide = begin(accepter);
            if ((requesterSide != null || accepterSide != null)
                    && (requesterSide != Side.REQUEST || accepterSide != Side.ACCEPT)) {
                return Optional.of(new TypeDiff(List.of(), part(SessionTypes.dual(accepter)), part(requester),
                        "the requester's type must begin with cbegin and the accepter's with sbegin (or neither"
                                + " with a begin), but they begin with " + keyword(requesterSide) + " and "
                                + keyword(accepterSide)));
            }
        }
        return Optional.ofNullable(of(Subtyping.compare(requester, SessionTypes.dual(accepter), rel,
                Subtyping.Mode.SUBTYPE)));
    }

    /**
     * The path as one line ({@code cbegin.!<int>.?{GET}}), or {@code the start} when it is empty; a path
     * of more than {@value #MAX_PATH_SHOWN} steps shows its first and last steps around
     * {@code …(N steps)…}.
     */
    public String pathText() {
        if (path.isEmpty()) {
            return "the start";
        }
        if (path.size() <= MAX_PATH_SHOWN) {
            return String.join(".", path);
        }
        int half = MAX_PATH_SHOWN / 2;
        return String.join(".", path.subList(0, half)) + ".\u2026(" + path.size() + " steps)\u2026."
                + String.join(".", path.subList(path.size() - half, path.size()));
    }

    /** {@code after PATH: expected E but found F: REASON} ({@code at the start: …} when the path is empty). */
    @Override
    public String toString() {
        return (path.isEmpty() ? "at the start" : "after " + pathText()) + ": expected " + expected
                + " but found " + found + ": " + reason;
    }

    private static TypeDiff of(Subtyping.Mismatch mismatch) {
        if (mismatch == null) {
            return null;
        }
        List<String> path = new ArrayList<>();
        boolean swapped = false;
        for (Subtyping.Obligation o = mismatch.at(); o.parent() != null; o = o.parent()) {
            Object step = o.step();
            if (step == Subtyping.PAYLOAD || step == Subtyping.REVERSED_PAYLOAD) {
                swapped ^= step == Subtyping.REVERSED_PAYLOAD;
                Unfolding.Head head = Unfolding.head(o.parent().sup());
                String action = head instanceof Unfolding.Prefix prefix ? Printer.print(prefix.action()) : "?";
                path.add("payload of " + SourceText.abbreviate(action));
            } else if (step instanceof Action action) {
                path.add(SourceText.abbreviate(Printer.print(action)));
            } else {
                path.add(String.valueOf(step));
            }
        }
        Collections.reverse(path);
        String expected = part(mismatch.at().sup());
        String found = part(mismatch.at().sub());
        String reason = mismatch.reason();
        if (swapped) {
            // Payloads are compared both ways; this pair is the expected payload checked against the found one.
            return new TypeDiff(path, found, expected, reason + " (message payloads must match both ways)");
        }
        return new TypeDiff(path, expected, found, reason);
    }

    private static String part(SessionType type) {
        if (type.isEnd()) {
            return "end";
        }
        String text = Printer.printFolded(type);
        return text.length() <= MAX_PART ? text : text.substring(0, MAX_PART - 1) + "\u2026";
    }

    private static Side begin(SessionType type) {
        return !type.isEnd() && type.head() instanceof Action.Begin begin ? begin.side() : null;
    }

    private static String keyword(Side side) {
        return side == null ? "no begin" : side.keyword();
    }
}
