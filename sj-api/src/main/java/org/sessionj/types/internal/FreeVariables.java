package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/** The recursion variables a type uses without binding them (payloads are separate sessions). */
public final class FreeVariables {
    private FreeVariables() {
    }

    /** A sequence to look into and the variables bound around it. */
    private record Scope(SessionType type, Set<String> bound) {
    }

    /**
     * The free variables of {@code type} (sequences before what they nest); payloads are not looked into (they
     * are checked on their own by well-formedness). Walks with an explicit stack, not recursion.
     */
    public static Set<String> of(SessionType type) {
        Set<String> free = new LinkedHashSet<>();
        Deque<Scope> todo = new ArrayDeque<>();
        todo.push(new Scope(type, Set.of()));
        while (!todo.isEmpty()) {
            Scope scope = todo.pop();
            List<Action> actions = scope.type().actions();
            // Pushed last-first so nested sequences are visited in written order.
            for (int i = actions.size() - 1; i >= 0; i--) {
                Action action = actions.get(i);
                // instanceof, not a pattern switch: linked through SwitchBootstraps on first use, milliseconds cold (issue 15).
                if (action instanceof Action.Rec rec) {
                    Set<String> inner = new HashSet<>(scope.bound());
                    inner.add(rec.variable());
                    todo.push(new Scope(rec.body(), inner));
                } else if (!(action instanceof Action.RecVar || action instanceof Action.Send
                        || action instanceof Action.Receive)) {
                    for (SessionType t : TypeRewriter.nested(action)) {
                        todo.push(new Scope(t, scope.bound()));
                    }
                }
            }
            for (Action action : actions) {
                if (action instanceof Action.RecVar v && !scope.bound().contains(v.variable())) {
                    free.add(v.variable());
                }
            }
        }
        return free;
    }
}
