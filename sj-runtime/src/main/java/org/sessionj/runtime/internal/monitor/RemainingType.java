package org.sessionj.runtime.internal.monitor;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/**
 * The session type that remains from a state of a compiled session type: what a delegated session
 * still has to do (it travels with the session, docs/delegation.md). Loops are rebuilt as loops; a
 * state reached again other than through its loop is written as recursion. The continuation after a
 * choice appears inside each of its branches (the compiled graph shares it; the text repeats it).
 */
public final class RemainingType {
    private static final Object LOOP_HEAD = new Object();

    private int variables;

    private RemainingType() {
    }

    private static final class Variable {
        final String name;
        boolean used;

        Variable(String name) {
            this.name = name;
        }
    }

    /** The remaining type from {@code state} (empty at the end). */
    public static SessionType of(State state) {
        return new SessionType(new RemainingType().sequence(state, new IdentityHashMap<>()));
    }

    private List<Action> sequence(State state, IdentityHashMap<State, Object> context) {
        if (state.kind == State.Kind.END) {
            return List.of();
        }
        Object mark = context.get(state);
        if (mark == LOOP_HEAD) {
            return List.of(); // the end of a loop body
        }
        if (mark instanceof Variable variable) {
            variable.used = true;
            return List.of(new Action.RecVar(variable.name));
        }
        Variable variable = new Variable("D" + variables++);
        List<Action> actions = new ArrayList<>();
        context.put(state, variable);
        switch (state.kind) {
            case SEND, RECEIVE -> {
                actions.add(state.action);
                actions.addAll(sequence(state.next, context));
            }
            case SELECT, BRANCH -> {
                Map<String, SessionType> branches = new LinkedHashMap<>();
                for (int i = 0; i < state.labels.length; i++) {
                    branches.put(state.labels[i], new SessionType(sequence(state.branches[i], context)));
                }
                actions.add(state.kind == State.Kind.SELECT ? new Action.Select(branches) : new Action.Branch(branches));
            }
            case OUTWHILE, INWHILE -> {
                context.put(state, LOOP_HEAD);
                SessionType body = new SessionType(sequence(state.body, context));
                context.put(state, variable);
                actions.add(state.kind == State.Kind.OUTWHILE ? new Action.OutWhile(body) : new Action.InWhile(body));
                actions.addAll(sequence(state.exit, context));
            }
            case END -> throw new IllegalStateException("unreachable");
        }
        context.remove(state);
        if (variable.used) {
            return List.of(new Action.Rec(variable.name, new SessionType(actions)));
        }
        return actions;
    }
}
