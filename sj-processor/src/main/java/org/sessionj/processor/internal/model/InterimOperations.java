package org.sessionj.processor.internal.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;

/**
 * Printing, duality, expansion and well-formedness, used by {@link TypeModel} until the sj-api
 * implementations ({@code SessionTypes}) are available on this branch.
 */
final class InterimOperations {
    private InterimOperations() {
    }

    static String print(SessionType type) {
        return type.actions().stream().map(InterimOperations::print).collect(Collectors.joining("."));
    }

    static String print(Action action) {
        return switch (action) {
            case Action.Begin b -> b.side().keyword();
            case Action.Send s -> "!<" + print(s.payload()) + ">";
            case Action.Receive r -> "?(" + print(r.payload()) + ")";
            case Action.Select s -> "!{" + printBranches(s.branches()) + "}";
            case Action.Branch b -> "?{" + printBranches(b.branches()) + "}";
            case Action.OutWhile w -> "![" + print(w.body()) + "]*";
            case Action.InWhile w -> "?[" + print(w.body()) + "]*";
            case Action.Rec r -> "rec " + r.variable() + "[" + print(r.body()) + "]";
            case Action.RecVar v -> "#" + v.variable();
            case Action.ProtocolRef p -> "@(" + p.name() + ")";
            case Action.DualRef d -> "^(" + d.name() + ")";
        };
    }

    private static String print(Payload payload) {
        return switch (payload) {
            case Payload.JavaType j -> j.toString();
            case Payload.SessionPayload s -> print(s.type());
        };
    }

    private static String printBranches(Map<String, SessionType> branches) {
        return branches.entrySet().stream().map(e -> e.getKey() + ": " + print(e.getValue()))
                .collect(Collectors.joining(", "));
    }

    static SessionType dual(SessionType type) {
        return new SessionType(type.actions().stream().map(InterimOperations::dual).toList());
    }

    private static Action dual(Action action) {
        return switch (action) {
            case Action.Begin b -> new Action.Begin(b.side().dual());
            case Action.Send s -> new Action.Receive(s.payload());
            case Action.Receive r -> new Action.Send(r.payload());
            case Action.Select s -> new Action.Branch(mapBranches(s.branches(), InterimOperations::dual));
            case Action.Branch b -> new Action.Select(mapBranches(b.branches(), InterimOperations::dual));
            case Action.OutWhile w -> new Action.InWhile(dual(w.body()));
            case Action.InWhile w -> new Action.OutWhile(dual(w.body()));
            case Action.Rec r -> new Action.Rec(r.variable(), dual(r.body()));
            case Action.RecVar v -> v;
            case Action.ProtocolRef p -> new Action.DualRef(p.name());
            case Action.DualRef d -> new Action.ProtocolRef(d.name());
        };
    }

    static Map<String, SessionType> mapBranches(Map<String, SessionType> branches,
            Function<SessionType, SessionType> f) {
        Map<String, SessionType> out = new LinkedHashMap<>();
        branches.forEach((label, body) -> out.put(label, f.apply(body)));
        return out;
    }

    static SessionType expand(SessionType type, Function<String, Optional<SessionType>> resolver) {
        return new Expander(resolver).expand(type);
    }

    private static final class Expander {
        private final Function<String, Optional<SessionType>> resolver;
        private final Deque<String> inProgress = new ArrayDeque<>();

        Expander(Function<String, Optional<SessionType>> resolver) {
            this.resolver = resolver;
        }

        SessionType expand(SessionType type) {
            List<Action> out = new ArrayList<>();
            for (Action action : type.actions()) {
                switch (action) {
                    case Action.ProtocolRef p -> out.addAll(reference(p.name()).actions());
                    case Action.DualRef d -> out.addAll(dual(reference(d.name())).actions());
                    default -> out.add(expandInside(action));
                }
            }
            return new SessionType(out);
        }

        private SessionType reference(String name) {
            if (inProgress.contains(name)) {
                List<String> cycle = new ArrayList<>(inProgress);
                java.util.Collections.reverse(cycle);
                cycle.add(name);
                throw new ProtocolReferenceException("cyclic protocol references: " + String.join(" -> ", cycle));
            }
            SessionType target = resolver.apply(name)
                    .orElseThrow(() -> new ProtocolReferenceException("unknown protocol '" + name + "'"));
            inProgress.push(name);
            try {
                return expand(target);
            } finally {
                inProgress.pop();
            }
        }

        private Action expandInside(Action action) {
            return switch (action) {
                case Action.Send s -> new Action.Send(expand(s.payload()));
                case Action.Receive r -> new Action.Receive(expand(r.payload()));
                case Action.Select s -> new Action.Select(mapBranches(s.branches(), this::expand));
                case Action.Branch b -> new Action.Branch(mapBranches(b.branches(), this::expand));
                case Action.OutWhile w -> new Action.OutWhile(expand(w.body()));
                case Action.InWhile w -> new Action.InWhile(expand(w.body()));
                case Action.Rec r -> new Action.Rec(r.variable(), expand(r.body()));
                default -> action;
            };
        }

        private Payload expand(Payload payload) {
            return payload instanceof Payload.SessionPayload s ? new Payload.SessionPayload(expand(s.type())) : payload;
        }
    }

    static List<String> wellFormednessProblems(SessionType type) {
        List<String> problems = new ArrayList<>();
        checkSequence(type, true, new HashSet<>(), problems);
        return problems;
    }

    private static void checkSequence(SessionType type, boolean beginAllowed, Set<String> bound, List<String> problems) {
        List<Action> actions = type.actions();
        for (int i = 0; i < actions.size(); i++) {
            Action action = actions.get(i);
            boolean first = i == 0 && beginAllowed;
            switch (action) {
                case Action.Begin b -> {
                    if (!first) {
                        problems.add("'" + b.side().keyword() + "' may only be the first action of a protocol");
                    }
                }
                case Action.Send s -> checkPayload(s.payload(), bound, problems);
                case Action.Receive r -> checkPayload(r.payload(), bound, problems);
                case Action.Select s -> s.branches().values().forEach(b -> checkSequence(b, false, bound, problems));
                case Action.Branch b -> b.branches().values().forEach(t -> checkSequence(t, false, bound, problems));
                case Action.OutWhile w -> checkSequence(w.body(), false, bound, problems);
                case Action.InWhile w -> checkSequence(w.body(), false, bound, problems);
                case Action.Rec r -> {
                    if (!r.body().isEnd() && r.body().head() instanceof Action.RecVar v) {
                        problems.add("recursion variable '#" + v.variable() + "' is unguarded in 'rec "
                                + r.variable() + "[...]': an action must come before it");
                    }
                    Set<String> inner = new HashSet<>(bound);
                    inner.add(r.variable());
                    checkSequence(r.body(), false, inner, problems);
                }
                case Action.RecVar v -> {
                    if (!bound.contains(v.variable())) {
                        problems.add("recursion variable '#" + v.variable() + "' is not bound by an enclosing 'rec "
                                + v.variable() + "[...]'");
                    }
                    if (i != actions.size() - 1) {
                        problems.add("'#" + v.variable() + "' must be the last action of its sequence");
                    }
                }
                case Action.ProtocolRef p -> { }
                case Action.DualRef d -> { }
            }
        }
    }

    private static void checkPayload(Payload payload, Set<String> bound, List<String> problems) {
        if (payload instanceof Payload.SessionPayload s) {
            checkSequence(s.type(), true, new HashSet<>(), problems);
        }
    }
}
