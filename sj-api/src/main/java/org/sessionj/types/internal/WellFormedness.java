package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.ProtocolProblem;
import org.sessionj.types.ProtocolProblem.Kind;
import org.sessionj.types.SessionType;
import org.sessionj.types.Side;

/**
 * Checks the well-formedness rules of docs/session-types.md: recursion variables bound, guarded,
 * in tail position and not escaping (their rec, or into a payload); begin only first; choices
 * non-empty. Distinct labels are guaranteed by the AST (the parser rejects duplicates).
 */
public final class WellFormedness {
    /** How a recursion variable in scope may be used at the current position. */
    private record Binding(boolean tail, boolean guarded) {
    }

    private final ToIntFunction<Object> offsets;
    private final int maxNesting;
    private final List<ProtocolProblem> problems = new ArrayList<>();
    private final Set<String> allRecVariables = new HashSet<>();

    /**
     * A checker that positions problems with {@code offsets} and refuses, as one problem, a type
     * nesting deeper than {@code maxNesting}.
     */
    public WellFormedness(ToIntFunction<Object> offsets, int maxNesting) {
        this.offsets = offsets;
        this.maxNesting = maxNesting;
    }

    /**
     * One sequence being checked: its actions, how far the check got, and the bindings at that point.
     * {@code outside}: variables bound outside the message payload being checked; {@code beginFirst}:
     * whether the first action may be a begin.
     */
    private static final class Frame {
        final List<Action> actions;
        final Set<String> outside;
        final boolean beginFirst;
        Map<String, Binding> current;
        int index;

        Frame(SessionType type, Map<String, Binding> env, Set<String> outside, boolean beginFirst) {
            this.actions = type.actions();
            this.current = env;
            this.outside = outside;
            this.beginFirst = beginFirst;
        }
    }

    /** Every problem, in the order of the text; sequences are walked with an explicit stack, not recursion. */
    public List<ProtocolProblem> check(SessionType type) {
        if (type.depth() > maxNesting) {
            report(Kind.NESTING_TOO_DEEP, "the type nests " + type.depth() + " levels deep: expected at most "
                    + maxNesting + " levels of nesting", type);
            return List.copyOf(problems);
        }
        collectRecVariables(type);
        Deque<Frame> stack = new ArrayDeque<>();
        stack.push(new Frame(type, Map.of(), Set.of(), true));
        while (!stack.isEmpty()) {
            Frame frame = stack.peek();
            if (frame.index == frame.actions.size()) {
                stack.pop();
                continue;
            }
            List<Frame> nested = step(frame);
            // Nested sequences are checked before the rest of this one, so problems come in text order.
            for (int i = nested.size() - 1; i >= 0; i--) {
                stack.push(nested.get(i));
            }
        }
        return List.copyOf(problems);
    }

    /** Checks the frame's next action and moves past it; returns the nested sequences it holds. */
    private List<Frame> step(Frame frame) {
        int i = frame.index;
        List<Action> actions = frame.actions;
        Action action = actions.get(i);
        Map<String, Binding> here = i == actions.size() - 1 ? frame.current : with(frame.current, false, null);
        Set<String> outside = frame.outside;
        List<Frame> nested = new ArrayList<>();
        // instanceof chains, not pattern switches (here and in communicates): a pattern switch is linked
        // through SwitchBootstraps on first use, milliseconds in a fresh JVM's first session (issue 15).
        // References (@(P), ^(P)) need no check.
        if (action instanceof Action.Begin begin) {
            if (!(frame.beginFirst && i == 0)) {
                report(Kind.MISPLACED_BEGIN, begin.side().keyword()
                        + " is allowed only as the first action of a protocol or of a service message type",
                        action);
            }
        } else if (action instanceof Action.Send send) {
            payload(send.payload(), here, outside, nested);
        } else if (action instanceof Action.Receive receive) {
            payload(receive.payload(), here, outside, nested);
        } else if (action instanceof Action.Select select) {
            choice(select.branches(), "a selection !{…}", action, here, outside, nested);
        } else if (action instanceof Action.Branch branch) {
            choice(branch.branches(), "a branching ?{…}", action, here, outside, nested);
        } else if (action instanceof Action.OutWhile loop) {
            nested.add(new Frame(loop.body(), with(here, false, true), outside, false));
        } else if (action instanceof Action.InWhile loop) {
            nested.add(new Frame(loop.body(), with(here, false, true), outside, false));
        } else if (action instanceof Action.Rec rec) {
            Map<String, Binding> inner = new HashMap<>(here);
            inner.put(rec.variable(), new Binding(true, false));
            nested.add(new Frame(rec.body(), inner, outside, false));
        } else if (action instanceof Action.RecVar variable) {
            recVar(variable, here, outside);
        }
        if (communicates(action)) {
            frame.current = with(frame.current, null, true);
        }
        frame.index++;
        return nested;
    }

    private void choice(Map<String, SessionType> branches, String what, Action action,
                        Map<String, Binding> env, Set<String> outside, List<Frame> nested) {
        if (branches.isEmpty()) {
            report(Kind.EMPTY_CHOICE, what + " must have at least one label", action);
        }
        Map<String, Binding> guarded = with(env, null, true);
        for (SessionType branch : branches.values()) { // loops, not lambdas: each lambda is linked on first use
            nested.add(new Frame(branch, guarded, outside, false));
        }
    }

    private void payload(Payload payload, Map<String, Binding> env, Set<String> outside, List<Frame> nested) {
        if (payload instanceof Payload.SessionPayload session) {
            SessionType type = session.type();
            if (!type.isEnd() && type.head() instanceof Action.Begin begin && begin.side() == Side.ACCEPT) {
                report(Kind.MISPLACED_BEGIN, "a message type may start with cbegin (a service) but not with sbegin",
                        begin);
            }
            Set<String> outer = new HashSet<>(outside);
            outer.addAll(env.keySet());
            nested.add(new Frame(type, Map.of(), outer, true));
        }
    }

    private void recVar(Action.RecVar action, Map<String, Binding> env, Set<String> outside) {
        String x = action.variable();
        Binding binding = env.get(x);
        if (binding == null) {
            if (outside.contains(x)) {
                report(Kind.VARIABLE_IN_PAYLOAD, "#" + x + " is used inside a message type but bound outside it"
                        + " (a message type is a separate session)", action);
            } else if (allRecVariables.contains(x)) {
                report(Kind.ESCAPING_VARIABLE, "#" + x + " is used outside the rec " + x + "[…] that binds it", action);
            } else {
                report(Kind.UNBOUND_VARIABLE, "#" + x + " is not bound by any enclosing rec " + x + "[…]", action);
            }
        } else if (!binding.guarded()) {
            report(Kind.UNGUARDED_RECURSION, "#" + x + " recurses before any communication in rec " + x
                    + "[…] (unguarded recursion)", action);
        } else if (!binding.tail()) {
            report(Kind.NON_TAIL_RECURSION, "#" + x + " must end its rec " + x
                    + "[…]: here it is followed by more actions or inside a loop body", action);
        }
    }

    /**
     * Whether completing {@code action} always involves communication (a guard for recursion): any
     * action but {@code #X} does, and a {@code rec} does when its body does (looked into without recursion).
     */
    private static boolean communicates(Action action) {
        Deque<Action> todo = new ArrayDeque<>();
        todo.push(action);
        while (!todo.isEmpty()) {
            Action next = todo.pop();
            if (next instanceof Action.Rec rec) {
                List<Action> body = rec.body().actions();
                for (int i = body.size() - 1; i >= 0; i--) {
                    todo.push(body.get(i));
                }
            } else if (!(next instanceof Action.RecVar)) {
                return true;
            }
        }
        return false;
    }

    /** {@code env} with every binding's tail and/or guarded flag set ({@code null}: unchanged). */
    private static Map<String, Binding> with(Map<String, Binding> env, Boolean tail, Boolean guarded) {
        if (env.isEmpty()) {
            return env;
        }
        Map<String, Binding> result = new HashMap<>();
        for (Map.Entry<String, Binding> entry : env.entrySet()) {
            Binding b = entry.getValue();
            result.put(entry.getKey(), new Binding(tail == null ? b.tail() : tail, guarded == null ? b.guarded() : guarded));
        }
        return result;
    }

    /** Every variable some {@code rec} binds, payloads included. */
    private void collectRecVariables(SessionType type) {
        Deque<SessionType> todo = new ArrayDeque<>();
        todo.push(type);
        while (!todo.isEmpty()) {
            for (Action action : todo.pop().actions()) {
                if (action instanceof Action.Rec rec) {
                    allRecVariables.add(rec.variable());
                }
                for (SessionType inner : TypeRewriter.nested(action)) {
                    todo.push(inner);
                }
            }
        }
    }

    private void report(Kind kind, String message, Object node) {
        problems.add(new ProtocolProblem(kind, message, offsets.applyAsInt(node)));
    }
}
