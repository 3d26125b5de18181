package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.ProtocolProblem.Kind;
import org.sessionj.types.ProtocolResolver;
import org.sessionj.types.SessionType;

/**
 * Inlines protocol references. Each protocol is expanded once (memoised); the chain of protocols
 * being expanded detects cycles, including cycles through message payloads, which would need
 * recursive message types that the notation cannot express.
 */
public final class Expander {
    private final ProtocolResolver resolver;
    private final Map<String, SessionType> expanded = new HashMap<>();
    private final Deque<String> inProgress = new ArrayDeque<>();

    public Expander(ProtocolResolver resolver) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    public SessionType expand(SessionType type) {
        List<Action> actions = new ArrayList<>(type.actions().size());
        for (Action action : type.actions()) {
            switch (action) {
                case Action.ProtocolRef ref -> actions.addAll(definition(ref.name(), "@(" + ref.name() + ")").actions());
                case Action.DualRef ref ->
                        actions.addAll(Duality.dual(definition(ref.name(), "^(" + ref.name() + ")")).actions());
                default -> actions.add(expand(action));
            }
        }
        return new SessionType(actions);
    }

    private Action expand(Action action) {
        return switch (action) {
            case Action.Send send -> new Action.Send(expand(send.payload()));
            case Action.Receive receive -> new Action.Receive(expand(receive.payload()));
            case Action.Select select -> new Action.Select(expand(select.branches()));
            case Action.Branch branch -> new Action.Branch(expand(branch.branches()));
            case Action.OutWhile loop -> new Action.OutWhile(expand(loop.body()));
            case Action.InWhile loop -> new Action.InWhile(expand(loop.body()));
            case Action.Rec rec -> new Action.Rec(rec.variable(), expand(rec.body()));
            case Action.Begin begin -> begin;
            case Action.RecVar variable -> variable;
            case Action.ProtocolRef ref -> throw new IllegalStateException("spliced by the caller: " + ref);
            case Action.DualRef ref -> throw new IllegalStateException("spliced by the caller: " + ref);
        };
    }

    private Payload expand(Payload payload) {
        return payload instanceof Payload.SessionPayload session
                ? new Payload.SessionPayload(expand(session.type()))
                : payload;
    }

    private Map<String, SessionType> expand(Map<String, SessionType> branches) {
        Map<String, SessionType> result = new LinkedHashMap<>();
        branches.forEach((label, type) -> result.put(label, expand(type)));
        return result;
    }

    private SessionType definition(String name, String written) {
        SessionType done = expanded.get(name);
        if (done != null) {
            return done;
        }
        if (inProgress.contains(name)) {
            List<String> cycle = new ArrayList<>(inProgress.reversed());
            cycle = cycle.subList(cycle.indexOf(name), cycle.size());
            throw new ProtocolException(Kind.CYCLIC_PROTOCOL, "protocol " + name + " refers to itself: "
                    + String.join(" -> ", cycle) + " -> " + name
                    + " (use rec X[…] for a recursive protocol)",
                    "a reference to a protocol other than " + name, written);
        }
        SessionType definition = resolver.resolve(name).orElseThrow(() -> new ProtocolException(
                Kind.UNKNOWN_PROTOCOL, "unknown protocol " + name + " (referenced as " + written + ")",
                "a known protocol", written));
        Set<String> free = FreeVariables.of(definition);
        if (!free.isEmpty()) {
            String variable = free.iterator().next();
            throw new ProtocolException(Kind.OPEN_PROTOCOL, "protocol " + name + " uses #" + variable
                    + " outside any rec " + variable + "[…] of its own",
                    "a protocol whose recursion variables are bound in it", "#" + variable);
        }
        inProgress.push(name);
        try {
            SessionType result = expand(definition);
            expanded.put(name, result);
            return result;
        } finally {
            inProgress.pop();
        }
    }
}
