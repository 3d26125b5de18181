package org.sessionj.runtime.internal.monitor;

import java.util.HashSet;
import java.util.Set;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.Payload;

/**
 * Whether a program following one compiled session type may stand in for one following another:
 * the check a new owner makes on a delegated session (its declared type against the remaining type
 * the delegator sent) and a receiver of a service makes on the service's protocol. Compares the two
 * state graphs pair by pair (coinductively, so loops and recursion terminate), whatever their syntax:
 * the same kind of action at every step, each message type usable by the other side (a send may be a
 * subtype of what the replaced program sent, a receive a supertype of what it received), a selection
 * among labels the replaced program could select, a branch offering at least the labels it offered.
 */
public final class Conformance {
    private final JavaSubtyping subtyping;
    private final Set<Pair> assumed = new HashSet<>();

    private record Pair(State mine, State theirs) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Pair p && p.mine == mine && p.theirs == theirs;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(mine) * 31 + System.identityHashCode(theirs);
        }
    }

    private Conformance(JavaSubtyping subtyping) {
        this.subtyping = subtyping;
    }

    /**
     * Whether a program following {@code mine} may take over a session whose remaining type is
     * {@code theirs}: the peer, which follows the dual of {@code theirs}, then never meets an action
     * it does not expect.
     */
    public static boolean conforms(State mine, State theirs, JavaSubtyping subtyping) {
        return new Conformance(subtyping).check(mine, theirs);
    }

    private boolean check(State mine, State theirs) {
        if (mine.kind != theirs.kind) {
            return false;
        }
        if (!assumed.add(new Pair(mine, theirs))) {
            return true;
        }
        return switch (mine.kind) {
            case END -> true;
            case SEND -> usable(mine.message, theirs.message) && check(mine.next, theirs.next);
            case RECEIVE -> usable(theirs.message, mine.message) && check(mine.next, theirs.next);
            case SELECT -> labels(mine, theirs);
            case BRANCH -> labels(theirs, mine) && branches(mine, theirs);
            case OUTWHILE, INWHILE -> check(mine.body, theirs.body) && check(mine.exit, theirs.exit);
        };
    }

    /** SELECT: every label {@code fewer} can choose is offered by {@code more}, with conforming continuations. */
    private boolean labels(State fewer, State more) {
        for (int i = 0; i < fewer.labels.length; i++) {
            State other = more.branch(fewer.labels[i]);
            if (other == null) {
                return false;
            }
            State mine = fewer.kind == State.Kind.SELECT ? fewer.branches[i] : null;
            if (mine != null && !check(mine, other)) {
                return false;
            }
        }
        return true;
    }

    /** BRANCH: each label the peer may select continues conformingly. */
    private boolean branches(State mine, State theirs) {
        for (int i = 0; i < theirs.labels.length; i++) {
            if (!check(mine.branch(theirs.labels[i]), theirs.branches[i])) {
                return false;
            }
        }
        return true;
    }

    /** Whether a value sent as {@code sent} may be received as {@code received}. */
    private boolean usable(MessageType sent, MessageType received) {
        if (sent.kind() != received.kind()) {
            return false;
        }
        Payload a = sent.payload();
        Payload b = received.payload();
        if (a instanceof Payload.JavaType sub && b instanceof Payload.JavaType sup) {
            return sub.equals(sup) || subtyping.isSubtype(sub, sup);
        }
        return a.equals(b);
    }
}
