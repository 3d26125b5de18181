package org.sessionj.types.internal;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/**
 * Views a session type as a state of a state machine: its first observable step after unfolding
 * recursion. {@code rec X[S].T} unfolds to {@code S[rec X[S]/#X].T};
 * a loop {@code ![S]*.T} is a two-way choice made by this side between iterating
 * ({@code S.![S]*.T}) and exiting ({@code T}), {@code ?[S]*.T} the same choice made by the peer.
 * Reachable states are suffixes of the type with unfolded recursion, so a well-formed type has
 * finitely many.
 */
public final class Unfolding {
    /** Label of a loop's iterate transition. */
    public static final String ITERATE = "iterate";
    /** Label of a loop's exit transition. */
    public static final String EXIT = "exit";

    private Unfolding() {
    }

    /** The first step of a state. */
    public sealed interface Head {
    }

    /** The terminated session. */
    public record End() implements Head {
    }

    /** A single action (begin, send, receive, protocol reference) followed by {@code continuation}. */
    public record Prefix(Action action, SessionType continuation) implements Head {
    }

    /**
     * A choice: made by this side ({@code output}) or by the peer; a {@code loop} choice has the
     * labels {@link #ITERATE} and {@link #EXIT}. Each branch already includes what follows the choice.
     */
    public record Choice(boolean output, boolean loop, Map<String, SessionType> branches) implements Head {
        /** The step of choosing {@code label}, as the state machine writes it: {@code !{L}}, {@code ?[iterate]}. */
        public String step(String label) {
            String direction = output ? "!" : "?";
            return loop ? direction + "[" + label + "]" : direction + "{" + label + "}";
        }
    }

    /** {@code type} with leading recursions unfolded until its first action is not a {@code rec}. */
    public static SessionType unfoldRecursion(SessionType type) {
        Set<SessionType> seen = new HashSet<>();
        SessionType current = type;
        while (!current.isEnd() && current.head() instanceof Action.Rec rec) {
            if (!seen.add(current)) {
                throw new IllegalArgumentException("unguarded recursion in " + Printer.print(type));
            }
            current = substitute(rec.body(), rec.variable(), rec).then(current.tail());
        }
        return current;
    }

    /** The first step of {@code type}. */
    public static Head head(SessionType type) {
        SessionType state = unfoldRecursion(type);
        if (state.isEnd()) {
            return new End();
        }
        Action first = state.head();
        SessionType rest = state.tail();
        // instanceof, not a pattern switch: linked through SwitchBootstraps on first use, milliseconds cold (issue 15).
        if (first instanceof Action.Select select) {
            return new Choice(true, false, continueWith(select.branches(), rest));
        } else if (first instanceof Action.Branch branch) {
            return new Choice(false, false, continueWith(branch.branches(), rest));
        } else if (first instanceof Action.OutWhile loop) {
            return new Choice(true, true, loop(loop.body(), state, rest));
        } else if (first instanceof Action.InWhile loop) {
            return new Choice(false, true, loop(loop.body(), state, rest));
        } else if (first instanceof Action.RecVar variable) {
            throw new IllegalArgumentException("#" + variable.variable() + " is not bound in " + Printer.print(type));
        } else if (first instanceof Action.Rec rec) {
            throw new IllegalStateException("unfolded above: " + rec);
        }
        return new Prefix(first, rest);
    }

    private static Map<String, SessionType> continueWith(Map<String, SessionType> branches, SessionType rest) {
        Map<String, SessionType> result = new LinkedHashMap<>();
        branches.forEach((label, branch) -> result.put(label, branch.then(rest)));
        return result;
    }

    private static Map<String, SessionType> loop(SessionType body, SessionType loopState, SessionType rest) {
        Map<String, SessionType> result = new LinkedHashMap<>();
        result.put(ITERATE, body.then(loopState));
        result.put(EXIT, rest);
        return result;
    }

    /**
     * {@code type} with the free occurrences of {@code #x} replaced by {@code replacement}.
     * Unfolding works outermost-first on closed (well-formed) types, so every replacement is
     * closed and substitution cannot capture a variable even when binders shadow each other.
     * Payloads are separate sessions without free variables, so they are left alone.
     */
    static SessionType substitute(SessionType type, String x, Action.Rec replacement) {
        return new Substitution(x, replacement).rewrite(type);
    }

    private static final class Substitution extends TypeRewriter {
        private final String x;
        private final Action.Rec replacement;

        Substitution(String x, Action.Rec replacement) {
            this.x = x;
            this.replacement = replacement;
        }

        @Override
        boolean descend(Action action) {
            if (action instanceof Action.Rec rec) {
                return !rec.variable().equals(x);
            }
            return !(action instanceof Action.Send || action instanceof Action.Receive);
        }

        @Override
        void rebuild(Action action, List<SessionType> children, Sequence out) {
            if (action instanceof Action.RecVar variable && variable.variable().equals(x)) {
                out.add(replacement);
            } else {
                out.add(children == null ? action : withNested(action, children));
            }
        }
    }
}
