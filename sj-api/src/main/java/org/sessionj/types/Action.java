package org.sessionj.types;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One element of a {@link SessionType} sequence. Each permitted record is one construct of the
 * SJ notation (DESIGN.md §3).
 */
public sealed interface Action {

    /** {@code cbegin} (requester side) or {@code sbegin} (accepter side): only ever the first action. */
    record Begin(Side side) implements Action {
        public Begin {
            Objects.requireNonNull(side, "side");
        }
    }

    /** {@code !<T>}: send a message. */
    record Send(Payload payload) implements Action {
        public Send {
            Objects.requireNonNull(payload, "payload");
        }
    }

    /** {@code ?(T)}: receive a message. */
    record Receive(Payload payload) implements Action {
        public Receive {
            Objects.requireNonNull(payload, "payload");
        }
    }

    /** {@code !{L1: S1, …}}: select one label (outbranch). Labels keep their written order. */
    record Select(Map<String, SessionType> branches) implements Action {
        public Select {
            branches = copyOrdered(branches);
        }
    }

    /** {@code ?{L1: S1, …}}: offer labels to the peer (inbranch). Labels keep their written order. */
    record Branch(Map<String, SessionType> branches) implements Action {
        public Branch {
            branches = copyOrdered(branches);
        }
    }

    /** {@code ![S]*}: iteration decided by this side (outwhile). */
    record OutWhile(SessionType body) implements Action {
        public OutWhile {
            Objects.requireNonNull(body, "body");
        }
    }

    /** {@code ?[S]*}: iteration decided by the peer (inwhile). */
    record InWhile(SessionType body) implements Action {
        public InWhile {
            Objects.requireNonNull(body, "body");
        }
    }

    /** {@code rec X[S]}: a recursive session; {@code #X} inside {@code S} restarts it. */
    record Rec(String variable, SessionType body) implements Action {
        public Rec {
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(body, "body");
        }
    }

    /** {@code #X}: recurse to the enclosing {@code rec X[…]}. */
    record RecVar(String variable) implements Action {
        public RecVar {
            Objects.requireNonNull(variable, "variable");
        }
    }

    /** {@code @(P)}: the protocol declared by interface {@code P}, inlined. */
    record ProtocolRef(String name) implements Action {
        public ProtocolRef {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code ^(P)}: the dual of the protocol declared by interface {@code P}. */
    record DualRef(String name) implements Action {
        public DualRef {
            Objects.requireNonNull(name, "name");
        }
    }

    private static Map<String, SessionType> copyOrdered(Map<String, SessionType> branches) {
        Objects.requireNonNull(branches, "branches");
        Map<String, SessionType> copy = new LinkedHashMap<>();
        branches.forEach((label, type) -> copy.put(Objects.requireNonNull(label, "label"),
                Objects.requireNonNull(type, "branch type")));
        return Collections.unmodifiableMap(copy);
    }
}
