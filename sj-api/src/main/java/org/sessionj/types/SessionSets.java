package org.sessionj.types;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.sessionj.types.internal.SetParser;

/**
 * Session set types {@code {S1, S2, …}} ({@link SessionSet}): parsing, printing, duality, expansion,
 * well-formedness, subtyping and membership. The rules are in {@code docs/session-types.md} §8:
 *
 * <ul>
 *   <li>a set is a whole protocol: {@code {…}} is not an action and does not nest in a sequence;</li>
 *   <li>the dual of a set is the set of its members' duals;</li>
 *   <li>{@code A ≤ B} when every member of {@code A} is a subtype of some member of {@code B}
 *       ({@link SessionTypes#isSubtype}): a set is a subtype of any larger set, and of a set of
 *       supertypes of its members.</li>
 * </ul>
 */
public final class SessionSets {
    private SessionSets() {
    }

    /** Whether {@code text} is written as a set: its first token (after whitespace and comments) is <code>{</code>. */
    public static boolean isSet(String text) {
        return SetParser.isSet(Objects.requireNonNull(text, "text"));
    }

    /**
     * Parses a set, {@code {S1, S2, …}} (a trailing comma is accepted, comments and whitespace between
     * any two tokens), nesting at most {@link SessionTypes#maxNesting()} levels (the braces count as
     * one). Does not check well-formedness.
     *
     * @throws ProtocolSyntaxException when the text is not a set in SJ notation (SJT100), has no
     *                                 member (SJT208), names a member twice (SJT104) or nests too
     *                                 deeply (SJT103); always positioned
     */
    public static SessionSet parse(String text) {
        return parseWithPositions(text).set();
    }

    /** Parses like {@link #parse} and keeps every member positioned in the text (see {@link ParsedSet}). */
    public static ParsedSet parseWithPositions(String text) {
        List<SetParser.ParsedMember> parsed = SetParser.parse(text, SessionTypes.maxNesting(), true);
        List<ParsedProtocol> members = new ArrayList<>(parsed.size());
        for (SetParser.ParsedMember member : parsed) {
            members.add(new ParsedProtocol(text, member.type(), member.offsets()));
        }
        return new ParsedSet(text, members);
    }

    /** The canonical notation: {@code {S1, S2}}, members in order, {@code end} for the terminated session. */
    public static String print(SessionSet set) {
        StringBuilder out = new StringBuilder("{");
        for (SessionType member : set.members()) {
            out.append(out.length() == 1 ? "" : ", ").append(SetParser.memberText(member));
        }
        return out.append('}').toString();
    }

    /** The set of the members' duals, in the same order: the types of the peers of a set's sessions. */
    public static SessionSet dual(SessionSet set) {
        List<SessionType> duals = new ArrayList<>(set.size());
        for (SessionType member : set.members()) {
            duals.add(SessionTypes.dual(member));
        }
        return new SessionSet(duals);
    }

    /**
     * Every member expanded ({@link SessionTypes#expand}); members that become equal are kept once,
     * at the first place.
     *
     * @throws ProtocolException as {@link SessionTypes#expand}
     */
    public static SessionSet expand(SessionSet set, ProtocolResolver resolver) {
        Set<SessionType> expanded = new LinkedHashSet<>();
        for (SessionType member : set.members()) {
            expanded.add(SessionTypes.expand(member, resolver));
        }
        return new SessionSet(new ArrayList<>(expanded));
    }

    /** The well-formedness problems of every member, in member order (offsets -1). */
    public static List<ProtocolProblem> wellFormednessProblems(SessionSet set) {
        List<ProtocolProblem> problems = new ArrayList<>();
        for (SessionType member : set.members()) {
            problems.addAll(SessionTypes.wellFormednessProblems(member));
        }
        return problems;
    }

    /** Fails with a {@link ProtocolException} naming the first problem when a member is not well-formed. */
    public static void checkWellFormed(SessionSet set) {
        SessionTypes.throwIfProblems(wellFormednessProblems(set), null);
    }

    /**
     * Whether every member of {@code sub} is a subtype ({@link SessionTypes#isSubtype}, through
     * {@code rel}) of some member of {@code sup}: a session known to be at one of {@code sub}'s members
     * can be handled by code written for {@code sup} (a typecase over {@code sup} has an arm for it).
     *
     * @throws ProtocolException when a member of either set is not well-formed
     */
    public static boolean isSubtype(SessionSet sub, SessionSet sup, JavaSubtyping rel) {
        checkWellFormed(sub);
        checkWellFormed(sup);
        for (SessionType member : sub.members()) {
            if (firstSupertype(member, sup, rel) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the sets are subtypes of each other with {@link JavaSubtyping#EXACT}: each member of
     * either is equivalent to or a subtype of a member of the other.
     *
     * @throws ProtocolException when a member of either set is not well-formed
     */
    public static boolean equivalent(SessionSet a, SessionSet b) {
        return isSubtype(a, b, JavaSubtyping.EXACT) && isSubtype(b, a, JavaSubtyping.EXACT);
    }

    /**
     * The index of the member of {@code set} that {@code type} is {@link SessionTypes#equivalent} to
     * (the same behaviour up to unfolding), or -1: where a session at {@code type} stands in the set.
     *
     * @throws ProtocolException when {@code type} or a member is not well-formed
     */
    public static int memberOf(SessionType type, SessionSet set) {
        int index = set.members().indexOf(type);
        if (index >= 0) {
            return index;
        }
        List<SessionType> members = set.members();
        for (int i = 0; i < members.size(); i++) {
            if (SessionTypes.equivalent(type, members.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static int firstSupertype(SessionType member, SessionSet sup, JavaSubtyping rel) {
        List<SessionType> members = sup.members();
        for (int i = 0; i < members.size(); i++) {
            if (SessionTypes.isSubtype(member, members.get(i), rel)) {
                return i;
            }
        }
        return -1;
    }
}
