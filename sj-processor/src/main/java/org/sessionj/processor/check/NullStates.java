package org.sessionj.processor.check;

import java.util.Set;
import org.sessionj.processor.internal.flow.VarState;

/**
 * The states of a socket variable that may hold {@code null} (adv10 F17, adv13 A8), and how they meet:
 * where a path with null meets one with a live session the variable is that session or null
 * ({@link VarState.Nullable}); with an ended session, ended or null ({@link VarState.Nullness#MAYBE}).
 *
 * <p>Invariant: <em>null never meets a session silently</em> — the join records that the variable may be
 * null, only a null test ({@link NullTests}) reads such a state, and a loop starts its rounds in the join
 * of its entry and its back edge, so a connect-retry's later rounds see what the first one left.
 */
final class NullStates {
    private NullStates() {
    }

    /** What a message about a session that may be null adds: on which paths the session is there. */
    static String onSessionPaths(VarState.Nullable nullable) {
        return " (on the paths where it holds a session; on others it was " + nullable.nullHow() + ")";
    }

    /**
     * When {@code states} are null and one live session state (the request and then code that throws
     * before any action), that session or null ({@link VarState.Nullable}); else null.
     */
    static VarState sessionOrNull(Set<VarState> states) {
        VarState folded = null;
        for (VarState state : states) {
            if (folded == null) {
                folded = state;
            } else if (!LinearityRules.same(folded, state)) {
                folded = nullJoin(folded, state);
                if (folded == null) {
                    return null;
                }
            }
        }
        return folded instanceof VarState.Nullable ? folded : null;
    }

    /**
     * Two states of a variable with no session to finish, where their paths meet: the first, unless one
     * may hold null where the other holds a socket — then null or not depends on the path
     * ({@link VarState.Nullness#MAYBE}, described by the ended session).
     */
    static VarState.Moved ended(VarState.Moved left, VarState.Moved right) {
        if (left.nullness() == right.nullness() && left.nullness() != VarState.Nullness.MAYBE) {
            return left;
        }
        if (left.nullness() == VarState.Nullness.SOCKET && right.nullness() == VarState.Nullness.SOCKET) {
            return left;
        }
        VarState.Moved session = left.isNull() ? right : left;
        return new VarState.Moved(session.how(), VarState.Nullness.MAYBE);
    }

    /**
     * Merges a state where the variable may hold null with another: a live session gives the session or
     * null ({@link #nullJoin}); a state with no session to finish, or an unknown one, keeps that null is
     * possible; null for every other pair (a session live on one path and ended on the other is SJ020).
     */
    static VarState mergeNull(VarState left, VarState right) {
        VarState sessionOrNull = nullJoin(left, right);
        if (sessionOrNull != null) {
            return sessionOrNull;
        }
        boolean leftNull = left instanceof VarState.Moved l && l.nullness() != VarState.Nullness.SOCKET;
        boolean rightNull = right instanceof VarState.Moved r && r.nullness() != VarState.Nullness.SOCKET;
        if (!leftNull && !rightNull) {
            return null;
        }
        VarState.Moved nullish = (VarState.Moved) (leftNull ? left : right);
        VarState other = leftNull ? right : left;
        if (other instanceof VarState.Moved moved) {
            return ended(nullish, moved);
        }
        if (other instanceof VarState.Live live && live.complete()) {
            // As an ended session meeting a complete one (the ended state wins): nothing more may be done.
            return new VarState.Moved(nullish.isNull() ? "left complete on another path" : nullish.how(),
                    VarState.Nullness.MAYBE);
        }
        if (other instanceof VarState.Unknown unknown) {
            boolean closable = unknown.closable() && (nullish.isNull() || LinearityRules.endedHere(nullish));
            return unknown.withMayBeNull(true, closable);
        }
        return null;
    }

    /**
     * Where a path with a live session meets one where the same variable holds null (or one where it may
     * hold either), the state that is the session or null ({@link VarState.Nullable}); null for any other
     * pair. Two sessions must be the same state (else the paths disagree: SJ020 from the caller).
     */
    static VarState nullJoin(VarState left, VarState right) {
        VarState.Live leftSession = left instanceof VarState.Nullable n ? n.session() : incomplete(left);
        VarState.Live rightSession = right instanceof VarState.Nullable n ? n.session() : incomplete(right);
        String leftNull = nullHow(left);
        String rightNull = nullHow(right);
        if (leftSession != null && rightSession == null && rightNull != null) {
            return new VarState.Nullable(leftSession, leftNull != null ? leftNull : rightNull);
        }
        if (rightSession != null && leftSession == null && leftNull != null) {
            return new VarState.Nullable(rightSession, rightNull != null ? rightNull : leftNull);
        }
        if (leftSession != null && rightSession != null && (leftNull != null || rightNull != null)
                && LinearityRules.same(leftSession, rightSession)) {
            return new VarState.Nullable(leftSession, leftNull != null ? leftNull : rightNull);
        }
        return null;
    }

    private static VarState.Live incomplete(VarState state) {
        return state instanceof VarState.Live live && !live.complete() ? live : null;
    }

    /** Where a state's null came from, if the variable holds (or may hold) null; null when it holds a socket. */
    private static String nullHow(VarState state) {
        if (state instanceof VarState.Nullable nullable) {
            return nullable.nullHow();
        }
        return state instanceof VarState.Moved moved && moved.isNull() ? moved.how() : null;
    }

    /**
     * The state a loop starts its rounds in when the variable is {@code atEntry} on the way in and
     * {@code atBackEdge} when it goes round, if they differ only in whether it holds null: the session or
     * null, or an ended session or null; null when {@code atEntry} stands (the loop's invariant check
     * then decides).
     */
    static VarState nullWidened(VarState atEntry, VarState atBackEdge) {
        if (atBackEdge == null || covers(atEntry, atBackEdge)) {
            return null;
        }
        VarState joined = nullJoin(atEntry, atBackEdge);
        if (joined == null && atEntry instanceof VarState.Moved entry && atBackEdge instanceof VarState.Moved back
                && entry.nullness() != back.nullness()) {
            joined = ended(entry, back);
        }
        return joined;
    }

    /**
     * Whether {@code head}, a state a loop starts its rounds in, already allows {@code later}, the state
     * of a later round: the same, or one of the two a session-or-null (ended-or-null) state stands for.
     */
    static boolean covers(VarState head, VarState later) {
        if (LinearityRules.same(head, later)) {
            return true;
        }
        if (head instanceof VarState.Nullable nullable) {
            return nullHow(later) != null && !(later instanceof VarState.Nullable)
                    || LinearityRules.same(nullable.session(), later instanceof VarState.Nullable n ? n.session() : later);
        }
        return head instanceof VarState.Moved moved && moved.nullness() == VarState.Nullness.MAYBE
                && later instanceof VarState.Moved;
    }
}
