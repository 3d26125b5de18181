package org.sessionj.runtime.internal.monitor;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.api.SJException;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/**
 * Compiles an expanded session type (no {@code @(P)}/{@code ^(P)} left, message classes by binary
 * name) into a graph of {@link State}s: loops and recursion become back edges, so following a session
 * allocates nothing.
 */
public final class StateMachine {
    private final ClassLoader loader;

    private StateMachine(ClassLoader loader) {
        this.loader = loader;
    }

    /** The first state of {@code type}; a leading {@code cbegin}/{@code sbegin} is skipped. */
    public static State compile(SessionType type, ClassLoader loader) {
        StateMachine machine = new StateMachine(loader);
        State start = machine.sequence(type.actions(), 0, State.END, Map.of());
        return resolveForwards(start, new IdentityHashMap<>());
    }

    private State sequence(List<Action> actions, int index, State continuation, Map<String, State> recursion) {
        if (index == actions.size()) {
            return continuation;
        }
        Action action = actions.get(index);
        // An instanceof chain, not a pattern switch: a pattern switch is linked through SwitchBootstraps on
        // first use, milliseconds in a fresh JVM's first session (issue 15).
        if (action instanceof Action.Begin begin) {
            if (index != 0) {
                throw new SJException("malformed session type: " + begin.side().keyword() + " after the first action");
            }
            return sequence(actions, index + 1, continuation, recursion);
        } else if (action instanceof Action.Send send) {
            return message(State.Kind.SEND, send, send.payload(), actions, index, continuation, recursion);
        } else if (action instanceof Action.Receive receive) {
            return message(State.Kind.RECEIVE, receive, receive.payload(), actions, index, continuation, recursion);
        } else if (action instanceof Action.Select select) {
            return choice(State.Kind.SELECT, select, select.branches(), actions, index, continuation, recursion);
        } else if (action instanceof Action.Branch branch) {
            return choice(State.Kind.BRANCH, branch, branch.branches(), actions, index, continuation, recursion);
        } else if (action instanceof Action.OutWhile loop) {
            return loop(State.Kind.OUTWHILE, loop, loop.body(), actions, index, continuation, recursion);
        } else if (action instanceof Action.InWhile loop) {
            return loop(State.Kind.INWHILE, loop, loop.body(), actions, index, continuation, recursion);
        } else if (action instanceof Action.Rec rec) {
            State placeholder = new State(State.Kind.END, rec, null);
            Map<String, State> inner = new HashMap<>(recursion);
            inner.put(rec.variable(), placeholder);
            State after = sequence(actions, index + 1, continuation, recursion);
            State start = sequence(rec.body().actions(), 0, after, inner);
            if (start == placeholder) {
                throw new SJException("malformed session type: unguarded recursion #" + rec.variable());
            }
            placeholder.forward = start;
            return start;
        } else if (action instanceof Action.RecVar variable) {
            State target = recursion.get(variable.variable());
            if (target == null) {
                throw new SJException("malformed session type: unbound recursion variable #" + variable.variable());
            }
            return target;
        } else if (action instanceof Action.ProtocolRef ref) {
            throw new SJException("session type not expanded: @(" + ref.name() + ") left");
        } else if (action instanceof Action.DualRef ref) {
            throw new SJException("session type not expanded: ^(" + ref.name() + ") left");
        }
        throw new SJException("unknown action " + action.getClass().getName() + " in a session type");
    }

    private State message(State.Kind kind, Action action, org.sessionj.types.Payload payload, List<Action> actions,
            int index, State continuation, Map<String, State> recursion) {
        MessageType type;
        try {
            type = MessageType.of(payload, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new SJException("message type " + payload + " of the session type cannot be loaded: " + e, e);
        }
        State state = new State(kind, action, type);
        state.next = sequence(actions, index + 1, continuation, recursion);
        return state;
    }

    private State choice(State.Kind kind, Action action, Map<String, SessionType> branches, List<Action> actions,
            int index, State continuation, Map<String, State> recursion) {
        State state = new State(kind, action, null);
        State after = sequence(actions, index + 1, continuation, recursion);
        state.labels = branches.keySet().toArray(String[]::new);
        state.branches = new State[state.labels.length];
        for (int i = 0; i < state.labels.length; i++) {
            state.branches[i] = sequence(branches.get(state.labels[i]).actions(), 0, after, recursion);
        }
        return state;
    }

    private State loop(State.Kind kind, Action action, SessionType body, List<Action> actions, int index,
            State continuation, Map<String, State> recursion) {
        State state = new State(kind, action, null);
        state.exit = sequence(actions, index + 1, continuation, recursion);
        state.body = sequence(body.actions(), 0, state, recursion);
        return state;
    }

    /** Replaces every edge to a recursion placeholder by an edge to the state it stands for. */
    private static State resolveForwards(State state, IdentityHashMap<State, Boolean> done) {
        State target = target(state);
        if (done.put(target, Boolean.TRUE) != null) {
            return target;
        }
        if (target.next != null) {
            target.next = resolveForwards(target.next, done);
        }
        if (target.body != null) {
            target.body = resolveForwards(target.body, done);
        }
        if (target.exit != null) {
            target.exit = resolveForwards(target.exit, done);
        }
        if (target.branches != null) {
            for (int i = 0; i < target.branches.length; i++) {
                target.branches[i] = resolveForwards(target.branches[i], done);
            }
        }
        return target;
    }

    private static State target(State state) {
        State current = state;
        for (int hops = 0; current.forward != null; hops++) {
            if (hops > 10_000) {
                throw new SJException("malformed session type: unguarded recursion");
            }
            current = current.forward;
        }
        return current;
    }
}
