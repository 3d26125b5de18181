package org.sessionj.types;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A session type: the sequence of actions a session performs, in SJ notation {@code a1.a2.….an}.
 * The empty sequence is the terminated session ({@code end}, printed as the empty string).
 *
 * <p>Immutable; equality is structural (syntactic; the labels of a choice compared as a set). Equality
 * up to unfolding of recursion is {@link SessionTypes#equivalent}.
 *
 * <p>Built for the algorithms that walk a type step by step (subtyping, state machines): {@link #tail()}
 * and {@link #then} share the actions instead of copying them, and the hash code, {@link #depth()} and
 * {@link #size()} are computed once, bottom-up, when a type is made. {@link #equals} and
 * {@link #hashCode} therefore never recurse, however deeply a type nests.
 */
public final class SessionType {
    /** Hash of the terminated session; also the seed of every sequence's hash. */
    private static final int END_HASH = 1;
    /** Multiplier of the sequence hash (odd, so multiplying loses no bits). */
    private static final int HASH_STEP = 0x9E3779B1;

    /** The terminated session. */
    public static final SessionType END = new SessionType(new Segment(List.of(), null), 0);

    /**
     * A run of actions followed by what comes after it ({@code rest}, null for nothing): the storage
     * a type shares with its suffixes. The arrays hold, for each index, the value for the suffix that
     * starts there (this run's actions from that index, then {@code rest}).
     */
    private static final class Segment {
        final List<Action> actions;
        final SessionType rest;
        final int[] suffixHash;
        final int[] suffixDepth;
        final long[] suffixSize;

        Segment(List<Action> actions, SessionType rest) {
            this.actions = actions;
            this.rest = rest;
            int n = actions.size();
            suffixHash = new int[n + 1];
            suffixDepth = new int[n + 1];
            suffixSize = new long[n + 1];
            suffixHash[n] = rest == null ? END_HASH : rest.hash;
            suffixDepth[n] = rest == null ? 0 : rest.depth;
            suffixSize[n] = rest == null ? 0 : rest.size;
            for (int i = n - 1; i >= 0; i--) {
                Action action = actions.get(i);
                suffixHash[i] = action.hashCode() + HASH_STEP * suffixHash[i + 1];
                suffixDepth[i] = Math.max(depthOf(action), suffixDepth[i + 1]);
                suffixSize[i] = saturatedAdd(sizeOf(action), suffixSize[i + 1]);
            }
        }
    }

    private final Segment segment;
    private final int from;
    private final int length;
    private final int hash;
    private final int depth;
    private final long size;
    /** The actions as one list, made on first request (benign race: every thread makes an equal list). */
    private List<Action> actionList;

    /** A type made of {@code actions}, in order. */
    public SessionType(List<Action> actions) {
        this(new Segment(List.copyOf(Objects.requireNonNull(actions, "actions")), null), 0);
    }

    private SessionType(Segment segment, int from) {
        this.segment = segment;
        this.from = from;
        this.length = segment.actions.size() - from + (segment.rest == null ? 0 : segment.rest.length);
        this.hash = segment.suffixHash[from];
        this.depth = segment.suffixDepth[from];
        this.size = segment.suffixSize[from];
    }

    /** A type made of the given actions, in order. */
    public static SessionType of(Action... actions) {
        return new SessionType(List.of(actions));
    }

    /** The actions of this type, in order (an unmodifiable list). */
    public List<Action> actions() {
        List<Action> list = actionList;
        if (list == null) {
            if (segment.rest == null) {
                list = segment.actions.subList(from, segment.actions.size());
            } else {
                List<Action> all = new ArrayList<>(length);
                for (SessionType t = this; !t.isEnd(); t = t.tail()) {
                    all.add(t.head());
                }
                list = List.copyOf(all);
            }
            actionList = list;
        }
        return list;
    }

    /**
     * The number of top-level actions of this type ({@code actions().size()}, nested actions not
     * counted), in constant time: {@link #actions()} may have to build the list.
     */
    public int length() {
        return length;
    }

    /** Whether this is the terminated session. */
    public boolean isEnd() {
        return length == 0;
    }

    /** The first action; fails on {@code end}. */
    public Action head() {
        if (length == 0) {
            throw new IllegalStateException("the terminated session has no next action");
        }
        return segment.actions.get(from);
    }

    /** Everything after the first action; fails on {@code end}. Takes constant time. */
    public SessionType tail() {
        if (length == 0) {
            throw new IllegalStateException("the terminated session has no continuation");
        }
        if (from + 1 < segment.actions.size()) {
            return new SessionType(segment, from + 1);
        }
        return segment.rest == null ? END : segment.rest;
    }

    /**
     * This type followed by {@code next} ({@code this . next}). Takes time in the number of this
     * type's own actions; {@code next} is shared, not copied.
     */
    public SessionType then(SessionType next) {
        Objects.requireNonNull(next, "next");
        if (next.isEnd()) {
            return this;
        }
        if (isEnd()) {
            return next;
        }
        Deque<SessionType> pieces = new ArrayDeque<>();
        for (SessionType piece = this; piece != null; piece = piece.segment.rest) {
            pieces.push(piece);
        }
        SessionType result = next;
        while (!pieces.isEmpty()) {
            SessionType piece = pieces.pop();
            List<Action> own = piece.segment.actions.subList(piece.from, piece.segment.actions.size());
            result = new SessionType(new Segment(own, result), 0);
        }
        return result;
    }

    /** This type with {@code action} prepended. Takes constant time. */
    public SessionType prepend(Action action) {
        return new SessionType(new Segment(List.of(action), isEnd() ? null : this), 0);
    }

    /**
     * How deeply this type nests: the greatest number of brackets around any of its actions, counting
     * loops, choices, {@code rec}, session payloads and the type arguments of message types
     * ({@code !<int>} is 0, {@code ![!<int>]*} 1, {@code !<List<String>>} 1, {@code ?{A: ![?(int)]*}} 2).
     * The parser refuses types deeper than {@link SessionTypes#maxNesting()}.
     */
    public int depth() {
        return depth;
    }

    /**
     * The number of actions in this type, nested ones included (actions inside loops, choices,
     * {@code rec} and session payloads); saturates at {@link Long#MAX_VALUE}.
     */
    public long size() {
        return size;
    }

    /** Structural equality; compares nested types without recursion. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        return o instanceof SessionType other && Equality.equal(this, other);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** The canonical SJ notation of this type; {@link SessionTypes#parse} reads it back. */
    @Override
    public String toString() {
        return SessionTypes.print(this);
    }

    // The type algorithms on a session's set-up path test the action's class with instanceof chains,
    // not pattern switches: each pattern switch is linked through SwitchBootstraps on first use, which
    // spins a class with the classfile API (14 sites on a fresh JVM's first session cost 11-16 ms of CPU
    // even with an AOT cache, issue 15); an instanceof chain costs nothing to link.

    private static int depthOf(Action action) {
        if (action instanceof Action.Send send) {
            return depthOf(send.payload());
        } else if (action instanceof Action.Receive receive) {
            return depthOf(receive.payload());
        } else if (action instanceof Action.Select select) {
            return 1 + maxDepth(select.branches());
        } else if (action instanceof Action.Branch branch) {
            return 1 + maxDepth(branch.branches());
        } else if (action instanceof Action.OutWhile loop) {
            return 1 + loop.body().depth;
        } else if (action instanceof Action.InWhile loop) {
            return 1 + loop.body().depth;
        } else if (action instanceof Action.Rec rec) {
            return 1 + rec.body().depth;
        }
        return 0;
    }

    private static int depthOf(Payload payload) {
        return payload instanceof Payload.SessionPayload session ? 1 + session.type().depth
                : javaDepth((Payload.JavaType) payload);
    }

    /** Nesting of type arguments ({@code int} 0, {@code List<String>} 1), without recursion. */
    static int javaDepth(Payload.JavaType type) {
        int deepest = 0;
        Deque<Payload.JavaType> types = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        types.push(type);
        depths.push(0);
        while (!types.isEmpty()) {
            Payload.JavaType current = types.pop();
            int at = depths.pop();
            deepest = Math.max(deepest, at);
            for (Payload.JavaType argument : current.typeArguments()) {
                types.push(argument);
                depths.push(at + 1);
            }
        }
        return deepest;
    }

    private static int maxDepth(Map<String, SessionType> branches) {
        int deepest = 0;
        for (SessionType branch : branches.values()) {
            deepest = Math.max(deepest, branch.depth);
        }
        return deepest;
    }

    private static long sizeOf(Action action) {
        if (action instanceof Action.Send send) {
            return send.payload() instanceof Payload.SessionPayload s ? saturatedAdd(1, s.type().size) : 1;
        } else if (action instanceof Action.Receive receive) {
            return receive.payload() instanceof Payload.SessionPayload s ? saturatedAdd(1, s.type().size) : 1;
        } else if (action instanceof Action.Select select) {
            return 1 + totalSize(select.branches());
        } else if (action instanceof Action.Branch branch) {
            return 1 + totalSize(branch.branches());
        } else if (action instanceof Action.OutWhile loop) {
            return saturatedAdd(1, loop.body().size);
        } else if (action instanceof Action.InWhile loop) {
            return saturatedAdd(1, loop.body().size);
        } else if (action instanceof Action.Rec rec) {
            return saturatedAdd(1, rec.body().size);
        }
        return 1;
    }

    private static long totalSize(Map<String, SessionType> branches) {
        long total = 0;
        for (SessionType branch : branches.values()) {
            total = saturatedAdd(total, branch.size);
        }
        return Math.min(total, Long.MAX_VALUE - 1);
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** Structural equality with an explicit work list instead of recursion. */
    private static final class Equality {
        private final Deque<SessionType> pending = new ArrayDeque<>();

        static boolean equal(SessionType a, SessionType b) {
            Equality equality = new Equality();
            equality.push(a, b);
            return equality.run();
        }

        private void push(SessionType a, SessionType b) {
            pending.push(b);
            pending.push(a);
        }

        private boolean run() {
            while (!pending.isEmpty()) {
                SessionType a = pending.pop();
                SessionType b = pending.pop();
                if (a == b) {
                    continue;
                }
                if (a.hash != b.hash || a.length != b.length || a.depth != b.depth || a.size != b.size) {
                    return false;
                }
                for (SessionType x = a, y = b; !x.isEnd(); x = x.tail(), y = y.tail()) {
                    if (!sameAction(x.head(), y.head())) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Compares two actions one level deep, queueing their nested types for comparison. */
        private boolean sameAction(Action a, Action b) {
            if (a == b) {
                return true;
            }
            if (a.getClass() != b.getClass()) {
                return false;
            }
            // instanceof, not a pattern switch: see depthOf.
            if (a instanceof Action.Send s) {
                return samePayload(s.payload(), ((Action.Send) b).payload());
            } else if (a instanceof Action.Receive s) {
                return samePayload(s.payload(), ((Action.Receive) b).payload());
            } else if (a instanceof Action.Select s) {
                return sameBranches(s.branches(), ((Action.Select) b).branches());
            } else if (a instanceof Action.Branch s) {
                return sameBranches(s.branches(), ((Action.Branch) b).branches());
            } else if (a instanceof Action.OutWhile s) {
                push(s.body(), ((Action.OutWhile) b).body());
            } else if (a instanceof Action.InWhile s) {
                push(s.body(), ((Action.InWhile) b).body());
            } else if (a instanceof Action.Rec s) {
                Action.Rec t = (Action.Rec) b;
                if (!s.variable().equals(t.variable())) {
                    return false;
                }
                push(s.body(), t.body());
            } else {
                return a.equals(b); // atoms: begin, #X, @(P), ^(P)
            }
            return true;
        }

        private boolean samePayload(Payload a, Payload b) {
            if (a instanceof Payload.SessionPayload s && b instanceof Payload.SessionPayload t) {
                push(s.type(), t.type());
                return true;
            }
            return a.equals(b);
        }

        private boolean sameBranches(Map<String, SessionType> a, Map<String, SessionType> b) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<String, SessionType> branch : a.entrySet()) {
                SessionType other = b.get(branch.getKey());
                if (other == null) {
                    return false;
                }
                push(branch.getValue(), other);
            }
            return true;
        }
    }
}
