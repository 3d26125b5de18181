package org.sessionj.types.internal;

import java.util.LinkedHashSet;
import java.util.Set;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/** The recursion variables a type uses without binding them (payloads are separate sessions). */
public final class FreeVariables {
    private FreeVariables() {
    }

    /** The free variables of {@code type}, in order of first use; payloads are not looked into. */
    public static Set<String> of(SessionType type) {
        Set<String> free = new LinkedHashSet<>();
        collect(type, Set.of(), free);
        return free;
    }

    private static void collect(SessionType type, Set<String> bound, Set<String> free) {
        for (Action action : type.actions()) {
            switch (action) {
                case Action.RecVar v -> {
                    if (!bound.contains(v.variable())) {
                        free.add(v.variable());
                    }
                }
                case Action.Rec rec -> {
                    Set<String> inner = new LinkedHashSet<>(bound);
                    inner.add(rec.variable());
                    collect(rec.body(), inner, free);
                }
                case Action.Select s -> s.branches().values().forEach(b -> collect(b, bound, free));
                case Action.Branch b -> b.branches().values().forEach(t -> collect(t, bound, free));
                case Action.OutWhile loop -> collect(loop.body(), bound, free);
                case Action.InWhile loop -> collect(loop.body(), bound, free);
                // Payloads are separate sessions, checked on their own by well-formedness.
                case Action.Send send -> {
                }
                case Action.Receive receive -> {
                }
                case Action.Begin begin -> {
                }
                case Action.ProtocolRef ref -> {
                }
                case Action.DualRef ref -> {
                }
            }
        }
    }
}
