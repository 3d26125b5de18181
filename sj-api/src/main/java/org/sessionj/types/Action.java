package org.sessionj.types;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One element of a {@link SessionType} sequence. Each permitted record is one construct of the
 * SJ notation (DESIGN.md §3).
 *
 * <p>The records write out {@code equals} and {@code hashCode} (component-wise, as a record's own; each kind
 * adds its own multiple of one odd constant, so that {@code !<int>} and {@code ?(int)} hash apart):
 * the generated ones are linked through {@code invokedynamic} ({@code ObjectMethods}) the first time
 * each record class is compared or hashed, about a millisecond per class in a fresh JVM even with an
 * AOT cache, and every {@link SessionType} made hashes its actions, so a fresh JVM's first session
 * paid that for every kind of action in its protocol (issue 15, docs/benchmarks.md "Cold start").
 */
public sealed interface Action {

    /** {@code cbegin} (requester side) or {@code sbegin} (accepter side): only ever the first action. */
    record Begin(Side side) implements Action {
        public Begin {
            Objects.requireNonNull(side, "side");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Begin that && side.equals(that.side);
        }

        @Override
        public int hashCode() {
            return 0x9E3779B1 + side.ordinal();
        }
    }

    /** {@code !<T>}: send a message. */
    record Send(Payload payload) implements Action {
        public Send {
            Objects.requireNonNull(payload, "payload");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Send that && payload.equals(that.payload);
        }

        @Override
        public int hashCode() {
            return 2 * 0x9E3779B1 + payload.hashCode();
        }
    }

    /** {@code ?(T)}: receive a message. */
    record Receive(Payload payload) implements Action {
        public Receive {
            Objects.requireNonNull(payload, "payload");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Receive that && payload.equals(that.payload);
        }

        @Override
        public int hashCode() {
            return 3 * 0x9E3779B1 + payload.hashCode();
        }
    }

    /** {@code !{L1: S1, …}}: select one label (outbranch). Labels keep their written order. */
    record Select(Map<String, SessionType> branches) implements Action {
        public Select {
            branches = copyOrdered(branches);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Select that && branches.equals(that.branches);
        }

        @Override
        public int hashCode() {
            return 4 * 0x9E3779B1 + branches.hashCode();
        }
    }

    /** {@code ?{L1: S1, …}}: offer labels to the peer (inbranch). Labels keep their written order. */
    record Branch(Map<String, SessionType> branches) implements Action {
        public Branch {
            branches = copyOrdered(branches);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Branch that && branches.equals(that.branches);
        }

        @Override
        public int hashCode() {
            return 5 * 0x9E3779B1 + branches.hashCode();
        }
    }

    /** {@code ![S]*}: iteration decided by this side (outwhile). */
    record OutWhile(SessionType body) implements Action {
        public OutWhile {
            Objects.requireNonNull(body, "body");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof OutWhile that && body.equals(that.body);
        }

        @Override
        public int hashCode() {
            return 6 * 0x9E3779B1 + body.hashCode();
        }
    }

    /** {@code ?[S]*}: iteration decided by the peer (inwhile). */
    record InWhile(SessionType body) implements Action {
        public InWhile {
            Objects.requireNonNull(body, "body");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof InWhile that && body.equals(that.body);
        }

        @Override
        public int hashCode() {
            return 7 * 0x9E3779B1 + body.hashCode();
        }
    }

    /** {@code rec X[S]}: a recursive session; {@code #X} inside {@code S} restarts it. */
    record Rec(String variable, SessionType body) implements Action {
        public Rec {
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(body, "body");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Rec that && variable.equals(that.variable) && body.equals(that.body);
        }

        @Override
        public int hashCode() {
            return 8 * 0x9E3779B1 + variable.hashCode() * 31 + body.hashCode();
        }
    }

    /** {@code #X}: recurse to the enclosing {@code rec X[…]}. */
    record RecVar(String variable) implements Action {
        public RecVar {
            Objects.requireNonNull(variable, "variable");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof RecVar that && variable.equals(that.variable);
        }

        @Override
        public int hashCode() {
            return 9 * 0x9E3779B1 + variable.hashCode();
        }
    }

    /** {@code @(P)}: the protocol declared by interface {@code P}, inlined. */
    record ProtocolRef(String name) implements Action {
        public ProtocolRef {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ProtocolRef that && name.equals(that.name);
        }

        @Override
        public int hashCode() {
            return 10 * 0x9E3779B1 + name.hashCode();
        }
    }

    /** {@code ^(P)}: the dual of the protocol declared by interface {@code P}. */
    record DualRef(String name) implements Action {
        public DualRef {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DualRef that && name.equals(that.name);
        }

        @Override
        public int hashCode() {
            return 11 * 0x9E3779B1 + name.hashCode();
        }
    }

    private static Map<String, SessionType> copyOrdered(Map<String, SessionType> branches) {
        Objects.requireNonNull(branches, "branches");
        Map<String, SessionType> copy = new LinkedHashMap<>();
        for (Map.Entry<String, SessionType> branch : branches.entrySet()) { // a loop: no lambda linked on first use
            copy.put(Objects.requireNonNull(branch.getKey(), "label"), Objects.requireNonNull(branch.getValue(), "branch type"));
        }
        return Collections.unmodifiableMap(copy);
    }
}
