package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;

/**
 * Rebuilds a session type bottom-up with an explicit stack instead of recursion, so duality,
 * substitution and expansion cost no call stack however deeply a type nests. A subclass says which
 * actions to descend into and what each action becomes once its nested types are rebuilt; parts that
 * come back unchanged are shared, not copied.
 */
abstract class TypeRewriter {

    /** Whether to rebuild the nested types of {@code action} (its loop or rec body, branches, session payload). */
    abstract boolean descend(Action action);

    /**
     * Adds what {@code action} becomes to {@code out}. {@code children} are its nested types, rebuilt,
     * in the order of {@link #nested} ({@code null} when {@link #descend} said no).
     */
    abstract void rebuild(Action action, List<SessionType> children, Sequence out);

    /** The rebuilt sequence {@code built} of {@code original}; a hook for checking it and recording positions. */
    SessionType finish(SessionType original, SessionType built) {
        return built;
    }

    /**
     * A sequence being rebuilt: single actions, and whole types spliced in (shared, not copied: a type
     * spliced at the end costs nothing, elsewhere the length of its own top-level run).
     */
    static final class Sequence {
        private final List<Object> parts = new ArrayList<>();
        private boolean spliced;

        /** Appends one action. */
        void add(Action action) {
            parts.add(action);
        }

        /** Appends the actions of {@code type}. */
        void splice(SessionType type) {
            if (!type.isEnd()) {
                parts.add(type);
                spliced = true;
            }
        }

        /** Whether this holds exactly {@code actions}, the same objects. */
        boolean isExactly(List<Action> actions) {
            if (spliced || parts.size() != actions.size()) {
                return false;
            }
            for (int i = 0; i < parts.size(); i++) {
                if (parts.get(i) != actions.get(i)) {
                    return false;
                }
            }
            return true;
        }

        /** The type made of the parts, built from the end so spliced types are shared. */
        SessionType build() {
            SessionType result = SessionType.END;
            int end = parts.size();
            for (int i = parts.size() - 1; i >= -1; i--) {
                if (i >= 0 && parts.get(i) instanceof Action) {
                    continue;
                }
                if (end > i + 1) {
                    List<Action> run = new ArrayList<>(end - i - 1);
                    for (int j = i + 1; j < end; j++) {
                        run.add((Action) parts.get(j));
                    }
                    result = new SessionType(run).then(result);
                }
                if (i >= 0) {
                    result = ((SessionType) parts.get(i)).then(result);
                }
                end = i;
            }
            return result;
        }
    }

    /** One sequence being rebuilt: where it is, and the nested types of its current action done so far. */
    private static final class Frame {
        final SessionType original;
        final List<Action> actions;
        final Sequence out = new Sequence();
        int index;
        List<SessionType> children;
        List<SessionType> rebuiltChildren;

        Frame(SessionType original) {
            this.original = original;
            this.actions = original.actions();
        }
    }

    /** {@code type} rebuilt. */
    final SessionType rewrite(SessionType type) {
        Deque<Frame> stack = new ArrayDeque<>();
        stack.push(new Frame(type));
        SessionType done = null;
        while (true) {
            Frame frame = stack.peek();
            if (done != null) {
                frame.rebuiltChildren.add(done);
                done = null;
            }
            if (frame.index == frame.actions.size()) {
                stack.pop();
                done = frame.out.isExactly(frame.actions) ? frame.original : finish(frame.original, frame.out.build());
                if (stack.isEmpty()) {
                    return done;
                }
                continue;
            }
            Action action = frame.actions.get(frame.index);
            if (frame.children == null) {
                if (!descend(action)) {
                    rebuild(action, null, frame.out);
                    frame.index++;
                    continue;
                }
                frame.children = nested(action);
                frame.rebuiltChildren = new ArrayList<>(frame.children.size());
            }
            if (frame.rebuiltChildren.size() < frame.children.size()) {
                stack.push(new Frame(frame.children.get(frame.rebuiltChildren.size())));
                continue;
            }
            rebuild(action, sameAs(frame.children, frame.rebuiltChildren) ? frame.children : frame.rebuiltChildren,
                    frame.out);
            frame.children = null;
            frame.rebuiltChildren = null;
            frame.index++;
        }
    }

    private static boolean sameAs(List<SessionType> a, List<SessionType> b) {
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    /** The nested types of {@code action}, in a fixed order: branches as written, a body, a session payload. */
    static List<SessionType> nested(Action action) {
        // instanceof chains, not pattern switches (here and in withNested): a pattern switch is linked
        // through SwitchBootstraps on first use, milliseconds in a fresh JVM's first session (issue 15).
        if (action instanceof Action.Select select) {
            return List.copyOf(select.branches().values());
        } else if (action instanceof Action.Branch branch) {
            return List.copyOf(branch.branches().values());
        } else if (action instanceof Action.OutWhile loop) {
            return List.of(loop.body());
        } else if (action instanceof Action.InWhile loop) {
            return List.of(loop.body());
        } else if (action instanceof Action.Rec rec) {
            return List.of(rec.body());
        } else if (action instanceof Action.Send send && send.payload() instanceof Payload.SessionPayload s) {
            return List.of(s.type());
        } else if (action instanceof Action.Receive receive && receive.payload() instanceof Payload.SessionPayload s) {
            return List.of(s.type());
        }
        return List.of();
    }

    /**
     * {@code action} with its nested types replaced by {@code children} (in the order of {@link #nested});
     * {@code action} itself when they are the same objects.
     */
    static Action withNested(Action action, List<SessionType> children) {
        if (sameAs(nested(action), children)) {
            return action;
        }
        if (action instanceof Action.Select select) {
            return new Action.Select(relabel(select.branches(), children));
        } else if (action instanceof Action.Branch branch) {
            return new Action.Branch(relabel(branch.branches(), children));
        } else if (action instanceof Action.OutWhile) {
            return new Action.OutWhile(children.get(0));
        } else if (action instanceof Action.InWhile) {
            return new Action.InWhile(children.get(0));
        } else if (action instanceof Action.Rec rec) {
            return new Action.Rec(rec.variable(), children.get(0));
        } else if (action instanceof Action.Send) {
            return new Action.Send(new Payload.SessionPayload(children.get(0)));
        } else if (action instanceof Action.Receive) {
            return new Action.Receive(new Payload.SessionPayload(children.get(0)));
        }
        return action;
    }

    /** The labels of {@code branches}, in order, with {@code bodies}. */
    static Map<String, SessionType> relabel(Map<String, SessionType> branches, List<SessionType> bodies) {
        Map<String, SessionType> result = new LinkedHashMap<>();
        int i = 0;
        for (String label : branches.keySet()) {
            result.put(label, bodies.get(i++));
        }
        return result;
    }
}
