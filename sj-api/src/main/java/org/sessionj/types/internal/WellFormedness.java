package org.sessionj.types.internal;

import java.util.ArrayList;
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
    private final List<ProtocolProblem> problems = new ArrayList<>();
    private final Set<String> allRecVariables = new HashSet<>();

    public WellFormedness(ToIntFunction<Object> offsets) {
        this.offsets = offsets;
    }

    public List<ProtocolProblem> check(SessionType type) {
        collectRecVariables(type);
        sequence(type, Map.of(), Set.of(), true);
        return List.copyOf(problems);
    }

    /**
     * @param env       recursion variables bound in this session
     * @param outside   variables bound outside the message payload being checked
     * @param beginFirst whether the first action may be a begin
     */
    private void sequence(SessionType type, Map<String, Binding> env, Set<String> outside, boolean beginFirst) {
        List<Action> actions = type.actions();
        Map<String, Binding> current = env;
        for (int i = 0; i < actions.size(); i++) {
            Action action = actions.get(i);
            Map<String, Binding> here = i == actions.size() - 1 ? current : with(current, false, null);
            switch (action) {
                case Action.Begin begin -> {
                    if (!(beginFirst && i == 0)) {
                        report(Kind.MISPLACED_BEGIN, begin.side().keyword()
                                + " is allowed only as the first action of a protocol or of a service message type",
                                action);
                    }
                }
                case Action.Send send -> payload(send.payload(), action, here, outside);
                case Action.Receive receive -> payload(receive.payload(), action, here, outside);
                case Action.Select select -> choice(select.branches(), "a selection !{…}", action, here, outside);
                case Action.Branch branch -> choice(branch.branches(), "a branching ?{…}", action, here, outside);
                case Action.OutWhile loop -> sequence(loop.body(), with(here, false, true), outside, false);
                case Action.InWhile loop -> sequence(loop.body(), with(here, false, true), outside, false);
                case Action.Rec rec -> {
                    Map<String, Binding> inner = new HashMap<>(here);
                    inner.put(rec.variable(), new Binding(true, false));
                    sequence(rec.body(), inner, outside, false);
                }
                case Action.RecVar variable -> recVar(variable, here, outside);
                case Action.ProtocolRef ref -> {
                }
                case Action.DualRef ref -> {
                }
            }
            if (communicates(action)) {
                current = with(current, null, true);
            }
        }
    }

    private void choice(Map<String, SessionType> branches, String what, Action action,
                        Map<String, Binding> env, Set<String> outside) {
        if (branches.isEmpty()) {
            report(Kind.EMPTY_CHOICE, what + " must have at least one label", action);
        }
        Map<String, Binding> guarded = with(env, null, true);
        branches.values().forEach(branch -> sequence(branch, guarded, outside, false));
    }

    private void payload(Payload payload, Action action, Map<String, Binding> env, Set<String> outside) {
        if (payload instanceof Payload.SessionPayload session) {
            SessionType type = session.type();
            if (!type.isEnd() && type.head() instanceof Action.Begin begin && begin.side() == Side.ACCEPT) {
                report(Kind.MISPLACED_BEGIN, "a message type may start with cbegin (a service) but not with sbegin",
                        begin);
            }
            Set<String> outer = new HashSet<>(outside);
            outer.addAll(env.keySet());
            sequence(type, Map.of(), outer, true);
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

    /** Whether completing {@code action} always involves communication (a guard for recursion). */
    private static boolean communicates(Action action) {
        return switch (action) {
            case Action.Rec rec -> rec.body().actions().stream().anyMatch(WellFormedness::communicates);
            case Action.RecVar variable -> false;
            default -> true;
        };
    }

    /** {@code env} with every binding's tail and/or guarded flag set ({@code null}: unchanged). */
    private static Map<String, Binding> with(Map<String, Binding> env, Boolean tail, Boolean guarded) {
        if (env.isEmpty()) {
            return env;
        }
        Map<String, Binding> result = new HashMap<>();
        env.forEach((x, b) -> result.put(x, new Binding(tail == null ? b.tail() : tail,
                guarded == null ? b.guarded() : guarded)));
        return result;
    }

    private void collectRecVariables(SessionType type) {
        for (Action action : type.actions()) {
            switch (action) {
                case Action.Rec rec -> {
                    allRecVariables.add(rec.variable());
                    collectRecVariables(rec.body());
                }
                case Action.Select s -> s.branches().values().forEach(this::collectRecVariables);
                case Action.Branch b -> b.branches().values().forEach(this::collectRecVariables);
                case Action.OutWhile loop -> collectRecVariables(loop.body());
                case Action.InWhile loop -> collectRecVariables(loop.body());
                case Action.Send send -> collectRecVariables(send.payload());
                case Action.Receive receive -> collectRecVariables(receive.payload());
                default -> {
                }
            }
        }
    }

    private void collectRecVariables(Payload payload) {
        if (payload instanceof Payload.SessionPayload session) {
            collectRecVariables(session.type());
        }
    }

    private void report(Kind kind, String message, Object node) {
        problems.add(new ProtocolProblem(kind, message, offsets.applyAsInt(node)));
    }
}
