package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
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
 * Coinductive session subtyping (Gay–Hole style, process view) and equivalence: pairs of states are
 * assumed related once visited, so recursion is compared up to unfolding. Every rule is a
 * conjunction, so one global set of assumptions and one work list suffice — also for the pairs of
 * message payloads, which are compared in the same work list instead of by recursion (so nested
 * payloads cost linear, not exponential, time and no call stack). The first failing pair, in written
 * order, decides and is reported with the path that leads to it.
 */
public final class Subtyping {
    /** What the two types must be. */
    public enum Mode {
        /** {@code sub ≤ sup}: {@code sub} may be used where {@code sup} is expected. */
        SUBTYPE,
        /** The same behaviour: equal up to unfolding, message types and labels exactly equal. */
        EQUIVALENT
    }

    /**
     * One pair of states to relate, reached from {@code parent} by {@code step}: an {@link Action}
     * (the expected side's action), a choice label such as {@code ?{GET}}, {@link #PAYLOAD} (into the
     * session payload of the parent's action) or {@link #REVERSED_PAYLOAD}; null for the first pair.
     */
    public record Obligation(SessionType sub, SessionType sup, Obligation parent, Object step) {
    }

    /** The first pair that is not related, and why (a sentence naming what was expected and found). */
    public record Mismatch(Obligation at, String reason) {
    }

    /** The step into a message's session payload. */
    public static final Object PAYLOAD = new Object() {
        @Override
        public String toString() {
            return "payload";
        }
    };

    /**
     * The step into a message's session payload with the roles swapped: payloads are invariant, so
     * the expected payload must also be a subtype of the found one.
     */
    public static final Object REVERSED_PAYLOAD = new Object() {
        @Override
        public String toString() {
            return "payload (reversed)";
        }
    };

    private record Pair(SessionType sub, SessionType sup) {
    }

    private final JavaSubtyping rel;
    private final Mode mode;
    private final Set<Pair> assumed = new HashSet<>();
    private final Deque<Obligation> pending = new ArrayDeque<>();

    private Subtyping(JavaSubtyping rel, Mode mode) {
        this.rel = mode == Mode.EQUIVALENT ? JavaSubtyping.EXACT : rel;
        this.mode = mode;
    }

    /** Whether {@code sub} ≤ {@code sup}; both must be well-formed, {@code rel} reflexive. */
    public static boolean isSubtype(SessionType sub, SessionType sup, JavaSubtyping rel) {
        return compare(sub, sup, rel, Mode.SUBTYPE) == null;
    }

    /**
     * The first pair of states (in written order) where {@code sub} and {@code sup} are not related
     * as {@code mode} asks, or null when they are; both must be well-formed.
     */
    public static Mismatch compare(SessionType sub, SessionType sup, JavaSubtyping rel, Mode mode) {
        return new Subtyping(rel, mode).run(sub, sup);
    }

    private Mismatch run(SessionType sub, SessionType sup) {
        pending.push(new Obligation(sub, sup, null, null));
        while (!pending.isEmpty()) {
            Obligation pair = pending.pop();
            // Equal types are related (rel is reflexive); checking equality first is cheap (hashes).
            if (pair.sub().equals(pair.sup()) || !assumed.add(new Pair(pair.sub(), pair.sup()))) {
                continue;
            }
            String reason = step(pair, Unfolding.head(pair.sub()), Unfolding.head(pair.sup()));
            if (reason != null) {
                return new Mismatch(pair, reason);
            }
        }
        return null;
    }

    /** Queues what must hold after this pair's first steps; returns why they differ, or null. */
    private String step(Obligation pair, Head sub, Head sup) {
        if (sub instanceof End || sup instanceof End) {
            if (sub instanceof End && sup instanceof End) {
                return null;
            }
            return sub instanceof End ? "the session ends where more is expected" : "more follows where the session"
                    + " is expected to end";
        }
        if (sub instanceof Prefix p && sup instanceof Prefix q) {
            return prefix(pair, p, q);
        }
        if (sub instanceof Choice c && sup instanceof Choice d) {
            return choice(pair, c, d);
        }
        return kind(sub) + " where " + kind(sup) + " is expected";
    }

    private String prefix(Obligation pair, Prefix sub, Prefix sup) {
        Action found = sub.action();
        Action expected = sup.action();
        String reason;
        // instanceof, not a pattern switch: linked through SwitchBootstraps on first use, milliseconds cold (issue 15).
        if (found instanceof Action.Send s && expected instanceof Action.Send t) {
            reason = payload(pair, s.payload(), t.payload(), true);
        } else if (found instanceof Action.Receive s && expected instanceof Action.Receive t) {
            // Receiving is contravariant: who accepts a supertype can stand in for who accepts less.
            reason = payload(pair, s.payload(), t.payload(), false);
        } else {
            // Begin and protocol references are atoms: equal or unrelated.
            reason = found.equals(expected) ? null : kind(found) + " where " + kind(expected) + " is expected";
        }
        if (reason == null) {
            pending.push(new Obligation(sub.continuation(), sup.continuation(), pair, expected));
            // The payload comes before the continuation in written order: it is checked first.
            pushPayloads(pair, found, expected);
        }
        return reason;
    }

    /** Why a payload is not acceptable (null when the Java types are related or both are sessions). */
    private String payload(Obligation pair, Payload found, Payload expected, boolean send) {
        if (found instanceof Payload.JavaType s && expected instanceof Payload.JavaType t) {
            boolean ok = send ? rel.isSubtype(s, t) : rel.isSubtype(t, s);
            if (ok) {
                return null;
            }
            if (mode == Mode.EQUIVALENT) {
                return "message type " + s + " where " + t + " is expected";
            }
            return send ? "sends " + s + ", which is not a subtype of the expected " + t
                    : "receives " + s + ", which is not a supertype of the expected " + t;
        }
        if (found instanceof Payload.SessionPayload && expected instanceof Payload.SessionPayload) {
            return null;
        }
        return found instanceof Payload.SessionPayload ? "a session as the message where a Java value is expected"
                : "a Java value as the message where a session is expected";
    }

    /** Session payloads are invariant: each must be a subtype of the other (equivalent ones are). */
    private void pushPayloads(Obligation pair, Action found, Action expected) {
        SessionType s = sessionPayload(found);
        SessionType t = sessionPayload(expected);
        if (s == null || t == null) {
            return;
        }
        if (mode == Mode.SUBTYPE) {
            pending.push(new Obligation(t, s, pair, REVERSED_PAYLOAD));
        }
        pending.push(new Obligation(s, t, pair, PAYLOAD));
    }

    private static SessionType sessionPayload(Action action) {
        Payload payload = action instanceof Action.Send send ? send.payload()
                : action instanceof Action.Receive receive ? receive.payload() : null;
        return payload instanceof Payload.SessionPayload session ? session.type() : null;
    }

    private String choice(Obligation pair, Choice sub, Choice sup) {
        if (sub.output() != sup.output() || sub.loop() != sup.loop()) {
            return kind(sub) + " where " + kind(sup) + " is expected";
        }
        // Selecting: the subtype may use fewer labels. Branching: the subtype may offer more.
        Map<String, SessionType> fewer = mode == Mode.EQUIVALENT || sub.output() ? sub.branches() : sup.branches();
        Map<String, SessionType> more = mode == Mode.EQUIVALENT || sub.output() ? sup.branches() : sub.branches();
        for (String label : fewer.keySet()) {
            if (!more.containsKey(label)) {
                return sub.output() || mode == Mode.EQUIVALENT
                        ? "label " + label + " is not among the expected labels " + sup.branches().keySet()
                        : "label " + label + " is expected to be offered but only " + sub.branches().keySet() + " are";
            }
        }
        if (mode == Mode.EQUIVALENT && sup.branches().size() != sub.branches().size()) {
            List<String> missing = new ArrayList<>(sup.branches().keySet());
            missing.removeAll(sub.branches().keySet());
            return "labels " + missing + " are expected but missing";
        }
        List<String> labels = new ArrayList<>(fewer.keySet());
        for (int i = labels.size() - 1; i >= 0; i--) {
            String label = labels.get(i);
            pending.push(new Obligation(sub.branches().get(label), sup.branches().get(label), pair,
                    sup.step(label)));
        }
        return null;
    }

    /** A few words naming the kind of a state's first step. */
    private static String kind(Head head) {
        if (head instanceof Prefix prefix) {
            return kind(prefix.action());
        } else if (head instanceof Choice choice) {
            if (choice.loop()) {
                return choice.output() ? "a loop this side controls (![…]*)" : "a loop the peer controls (?[…]*)";
            }
            return choice.output() ? "a selection (!{…})" : "a branching (?{…})";
        }
        return "the end of the session";
    }

    private static String kind(Action action) {
        if (action instanceof Action.Send) {
            return "a send (" + SourceText.abbreviate(Printer.print(action)) + ")";
        } else if (action instanceof Action.Receive) {
            return "a receive (" + SourceText.abbreviate(Printer.print(action)) + ")";
        }
        return SourceText.abbreviate(Printer.print(action));
    }
}
