package org.sessionj.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A session type: the sequence of actions a session performs, in SJ notation {@code a1.a2.….an}.
 * The empty sequence is the terminated session ({@code end}, printed as the empty string).
 *
 * <p>Immutable; equality is structural (syntactic). Equality up to unfolding of recursion is
 * {@link SessionTypes#equivalent}.
 */
public record SessionType(List<Action> actions) {

    /** The terminated session. */
    public static final SessionType END = new SessionType(List.of());

    public SessionType {
        actions = List.copyOf(Objects.requireNonNull(actions, "actions"));
    }

    /** A type made of the given actions, in order. */
    public static SessionType of(Action... actions) {
        return new SessionType(List.of(actions));
    }

    /** Whether this is the terminated session. */
    public boolean isEnd() {
        return actions.isEmpty();
    }

    /** The first action; fails on {@code end}. */
    public Action head() {
        if (actions.isEmpty()) {
            throw new IllegalStateException("the terminated session has no next action");
        }
        return actions.get(0);
    }

    /** Everything after the first action; fails on {@code end}. */
    public SessionType tail() {
        if (actions.isEmpty()) {
            throw new IllegalStateException("the terminated session has no continuation");
        }
        return new SessionType(actions.subList(1, actions.size()));
    }

    /** This type followed by {@code next} ({@code this . next}). */
    public SessionType then(SessionType next) {
        if (next.isEnd()) {
            return this;
        }
        if (isEnd()) {
            return next;
        }
        List<Action> all = new ArrayList<>(actions.size() + next.actions.size());
        all.addAll(actions);
        all.addAll(next.actions);
        return new SessionType(all);
    }

    /** This type with {@code action} prepended. */
    public SessionType prepend(Action action) {
        List<Action> all = new ArrayList<>(actions.size() + 1);
        all.add(action);
        all.addAll(actions);
        return new SessionType(all);
    }

    /** The canonical SJ notation of this type; {@link SessionTypes#parse} reads it back. */
    @Override
    public String toString() {
        return SessionTypes.print(this);
    }
}
