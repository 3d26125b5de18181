package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
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
 * Inlines protocol references. Each protocol is expanded once (memoised), after the protocols it
 * refers to, in an order found with an explicit stack (which also detects cycles, including cycles
 * through message payloads, which would need recursive message types that the notation cannot
 * express); the inlining itself is a {@link TypeRewriter}, so long chains of references and deep
 * types cost no call stack. The result may nest at most {@code maxNesting} deep and hold at most
 * {@code maxSize} actions, so a few small protocols cannot expand into an unbounded one.
 *
 * <p>Given the positions of the input's nodes, it positions its errors at the reference that causes
 * them and gives every node of the result a position: its own, or for inlined nodes the reference
 * that inlined them (the first one, when a protocol is inlined at several places).
 */
public final class Expander {
    private final ProtocolResolver resolver;
    private final int maxNesting;
    private final long maxSize;
    private final Map<String, SessionType> expanded = new HashMap<>();
    private final Map<String, SessionType> dualExpanded = new HashMap<>();
    private final Map<String, SessionType> definitions = new HashMap<>();
    /** Positions: of the input's nodes (null when not tracked), and recorded for the result's. */
    private final IdentityHashMap<Object, Integer> inputOffsets;
    private final IdentityHashMap<Object, Integer> offsets = new IdentityHashMap<>();
    private final String text;
    /** The reference in the input being expanded (its position is where errors point). */
    private Object currentReference;

    /** An expander without positions. */
    public Expander(ProtocolResolver resolver, int maxNesting, long maxSize) {
        this(resolver, maxNesting, maxSize, null, null);
    }

    /**
     * An expander that positions errors and result nodes in {@code text}, given the offsets of the
     * input's nodes (by identity).
     */
    public Expander(ProtocolResolver resolver, int maxNesting, long maxSize, String text,
                    IdentityHashMap<Object, Integer> inputOffsets) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.maxNesting = maxNesting;
        this.maxSize = maxSize;
        this.text = text;
        this.inputOffsets = inputOffsets;
    }

    /** The positions of the result's nodes (empty when positions are not tracked). */
    public IdentityHashMap<Object, Integer> offsets() {
        return offsets;
    }

    public SessionType expand(SessionType type) {
        checkBounds(type, "the protocol");
        return new Inliner(true).rewrite(type);
    }

    /** Inlines references into a type: the input's own (positions tracked) or a definition's. */
    private final class Inliner extends TypeRewriter {
        private final boolean input;

        Inliner(boolean input) {
            this.input = input;
        }

        @Override
        boolean descend(Action action) {
            return true;
        }

        @Override
        void rebuild(Action action, List<SessionType> children, Sequence out) {
            // instanceof, not a pattern switch: linked through SwitchBootstraps on first use, milliseconds cold (issue 15).
            if (action instanceof Action.ProtocolRef ref) {
                splice(ref, ref.name(), expanded(ref.name(), "@(" + ref.name() + ")", ref), out);
            } else if (action instanceof Action.DualRef ref) {
                splice(ref, ref.name(), dualExpanded(ref), out);
            } else {
                Action rebuilt = withNested(action, children);
                if (input) {
                    position(rebuilt, action);
                    position(payloadOf(rebuilt), payloadOf(action));
                }
                out.add(rebuilt);
            }
        }

        private void splice(Action ref, String name, SessionType definition, Sequence out) {
            if (input && inputOffsets != null) {
                Integer at = inputOffsets.get(ref);
                if (at != null) {
                    positionAll(definition, at);
                }
            }
            out.splice(definition);
        }

        @Override
        SessionType finish(SessionType original, SessionType result) {
            checkBounds(result, "the expanded protocol");
            if (input) {
                position(result, original);
            }
            return result;
        }
    }

    private SessionType dualExpanded(Action.DualRef ref) {
        SessionType known = dualExpanded.get(ref.name());
        if (known == null) {
            known = Duality.dual(expanded(ref.name(), "^(" + ref.name() + ")", ref));
            dualExpanded.put(ref.name(), known);
        }
        return known;
    }

    /**
     * The expansion of protocol {@code name}: the protocols it needs are expanded first, depth-first
     * with an explicit stack, each once.
     */
    private SessionType expanded(String name, String written, Action reference) {
        SessionType done = expanded.get(name);
        if (done != null) {
            return done;
        }
        Object previous = currentReference;
        if (currentReference == null) {
            currentReference = reference;
        }
        try {
            Deque<Visit> stack = new ArrayDeque<>();
            Set<String> chain = new LinkedHashSet<>();
            stack.push(visit(name, written, chain));
            while (!stack.isEmpty()) {
                Visit top = stack.peek();
                if (top.references().hasNext()) {
                    Action next = top.references().next();
                    String child = next instanceof Action.ProtocolRef p ? p.name() : ((Action.DualRef) next).name();
                    if (expanded.containsKey(child)) {
                        continue;
                    }
                    String childWritten = Printer.print(next);
                    if (chain.contains(child)) {
                        throw cycle(child, chain, childWritten);
                    }
                    stack.push(visit(child, childWritten, chain));
                } else {
                    stack.pop();
                    chain.remove(top.name());
                    expanded.put(top.name(), new Inliner(false).rewrite(definitions.get(top.name())));
                }
            }
            return expanded.get(name);
        } finally {
            currentReference = previous;
        }
    }

    /** A protocol being expanded and the references in its definition still to look at. */
    private record Visit(String name, Iterator<Action> references) {
    }

    private Visit visit(String name, String written, Set<String> chain) {
        SessionType definition = resolver.resolve(name).orElse(null);
        if (definition == null) {
            throw error(Kind.UNKNOWN_PROTOCOL, "unknown protocol " + name + " (referenced as " + written + ")",
                    "a known protocol", written);
        }
        checkBounds(definition, "protocol " + name);
        Set<String> free = FreeVariables.of(definition);
        if (!free.isEmpty()) {
            String variable = free.iterator().next();
            throw error(Kind.OPEN_PROTOCOL, "protocol " + name + " uses #" + variable + " outside any rec "
                    + variable + "[…] of its own", "a protocol whose recursion variables are bound in it", "#" + variable);
        }
        definitions.put(name, definition);
        chain.add(name);
        return new Visit(name, references(definition).iterator());
    }

    private ProtocolException cycle(String name, Set<String> chain, String written) {
        List<String> path = new ArrayList<>(chain);
        path = path.subList(path.indexOf(name), path.size());
        return error(Kind.CYCLIC_PROTOCOL, "protocol " + name + " refers to itself: " + String.join(" -> ", path)
                + " -> " + name + " (use rec X[…] for a recursive protocol)",
                "a reference to a protocol other than " + name, written);
    }

    /** Every {@code @(P)} and {@code ^(P)} in {@code type}, payloads included. */
    private static List<Action> references(SessionType type) {
        List<Action> found = new ArrayList<>();
        Deque<SessionType> todo = new ArrayDeque<>();
        todo.push(type);
        while (!todo.isEmpty()) {
            for (Action action : todo.pop().actions()) {
                if (action instanceof Action.ProtocolRef || action instanceof Action.DualRef) {
                    found.add(action);
                }
                for (SessionType inner : TypeRewriter.nested(action)) { // a loop: no lambda linked on first use
                    todo.push(inner);
                }
            }
        }
        return found;
    }

    private void checkBounds(SessionType type, String what) {
        if (type.depth() > maxNesting) {
            throw error(Kind.NESTING_TOO_DEEP, what + " nests " + type.depth() + " levels deep: expected at most "
                    + maxNesting + " levels of nesting", "at most " + maxNesting + " levels of nesting",
                    type.depth() + " levels");
        }
        if (type.size() > maxSize) {
            throw error(Kind.EXPANSION_TOO_LARGE, what + " has more than " + maxSize + " actions once protocol"
                    + " references are inlined: expected at most " + maxSize + " actions", "at most " + maxSize
                    + " actions", type.size() == Long.MAX_VALUE ? "more" : type.size() + " actions");
        }
    }

    private ProtocolException error(Kind kind, String detail, String expected, String found) {
        Integer at = inputOffsets == null || currentReference == null ? null : inputOffsets.get(currentReference);
        return at == null ? new ProtocolException(kind, detail, expected, found)
                : new ProtocolException(kind, detail, expected, found, text, at);
    }

    private void position(Object node, Object original) {
        if (inputOffsets != null && node != null) {
            Integer at = inputOffsets.get(original);
            if (at != null) {
                offsets.putIfAbsent(node, at);
            }
        }
    }

    /** Gives every node of {@code type} (actions, payloads, sequences) position {@code at}, unless it has one. */
    private void positionAll(SessionType type, int at) {
        Deque<SessionType> todo = new ArrayDeque<>();
        todo.push(type);
        while (!todo.isEmpty()) {
            SessionType next = todo.pop();
            if (offsets.putIfAbsent(next, at) != null) {
                continue;
            }
            for (Action action : next.actions()) {
                offsets.putIfAbsent(action, at);
                Payload payload = payloadOf(action);
                if (payload != null) {
                    offsets.putIfAbsent(payload, at);
                }
                for (SessionType inner : TypeRewriter.nested(action)) { // a loop: no lambda linked on first use
                    todo.push(inner);
                }
            }
        }
    }

    private static Payload payloadOf(Action action) {
        return action instanceof Action.Send send ? send.payload()
                : action instanceof Action.Receive receive ? receive.payload() : null;
    }
}
