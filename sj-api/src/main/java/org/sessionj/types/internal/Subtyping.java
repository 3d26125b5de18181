package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.sessionj.types.Action;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;
import org.sessionj.types.internal.Unfolding.Choice;
import org.sessionj.types.internal.Unfolding.End;
import org.sessionj.types.internal.Unfolding.Head;
import org.sessionj.types.internal.Unfolding.Prefix;

/**
 * Coinductive session subtyping (Gay–Hole style, process view): pairs of states are assumed
 * related once visited, so recursion is compared up to unfolding. Every rule is a conjunction,
 * so one global set of assumptions suffices and the first failing pair decides.
 */
public final class Subtyping {
    private record Pair(SessionType sub, SessionType sup) {
    }

    private Subtyping() {
    }

    /** Whether {@code sub} ≤ {@code sup}; both must be well-formed. */
    public static boolean isSubtype(SessionType sub, SessionType sup, JavaSubtyping rel) {
        Set<Pair> assumed = new HashSet<>();
        Deque<Pair> pending = new ArrayDeque<>();
        pending.push(new Pair(sub, sup));
        while (!pending.isEmpty()) {
            Pair pair = pending.pop();
            if (!assumed.add(pair) || pair.sub().equals(pair.sup()) && rel == JavaSubtyping.EXACT) {
                continue;
            }
            if (!step(Unfolding.head(pair.sub()), Unfolding.head(pair.sup()), rel, pending)) {
                return false;
            }
        }
        return true;
    }

    private static boolean step(Head sub, Head sup, JavaSubtyping rel, Deque<Pair> pending) {
        return switch (sub) {
            case End end -> sup instanceof End;
            case Prefix p when sup instanceof Prefix q -> prefix(p, q, rel, pending);
            case Choice c when sup instanceof Choice d -> choice(c, d, pending);
            default -> false;
        };
    }

    private static boolean prefix(Prefix sub, Prefix sup, JavaSubtyping rel, Deque<Pair> pending) {
        boolean related = switch (sub.action()) {
            case Action.Send s when sup.action() instanceof Action.Send t -> payload(s.payload(), t.payload(), rel);
            // Receiving is contravariant: who accepts a supertype can stand in for who accepts less.
            case Action.Receive s when sup.action() instanceof Action.Receive t ->
                    payload(t.payload(), s.payload(), rel);
            case Action.Send s -> false;
            case Action.Receive s -> false;
            // Begin and protocol references are atoms: equal or unrelated.
            default -> sub.action().equals(sup.action());
        };
        if (related) {
            pending.push(new Pair(sub.continuation(), sup.continuation()));
        }
        return related;
    }

    private static boolean choice(Choice sub, Choice sup, Deque<Pair> pending) {
        if (sub.output() != sup.output() || sub.loop() != sup.loop()) {
            return false;
        }
        // Selecting: the subtype may use fewer labels. Branching: the subtype may offer more.
        Map<String, SessionType> fewer = sub.output() ? sub.branches() : sup.branches();
        Map<String, SessionType> more = sub.output() ? sup.branches() : sub.branches();
        if (!more.keySet().containsAll(fewer.keySet())) {
            return false;
        }
        for (String label : fewer.keySet()) {
            pending.push(new Pair(sub.branches().get(label), sup.branches().get(label)));
        }
        return true;
    }

    /** Message payloads: Java types through {@code rel}; sessions invariant (mutual subtypes). */
    private static boolean payload(Payload sub, Payload sup, JavaSubtyping rel) {
        if (sub instanceof Payload.JavaType s && sup instanceof Payload.JavaType t) {
            return rel.isSubtype(s, t);
        }
        if (sub instanceof Payload.SessionPayload s && sup instanceof Payload.SessionPayload t) {
            return isSubtype(s.type(), t.type(), rel) && isSubtype(t.type(), s.type(), rel);
        }
        return false;
    }
}
