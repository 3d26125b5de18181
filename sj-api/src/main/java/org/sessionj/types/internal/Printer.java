package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;

/**
 * Writes the canonical SJ notation: no spaces except one after each ':' and ',' of a choice
 * (and the ", " between type arguments), {@code end} only where an empty session is a message.
 * Works from an explicit stack of pieces still to write, so it needs no call stack per level.
 *
 * <p>The folded form ({@link #printFolded}) also undoes unfolding: where a sequence starts with the
 * unfolding of a {@code rec X[B]} that occurs in the type — {@code B} with {@code rec X[B]} in place
 * of {@code #X}, as a checker or runtime holds a recursive type after one round — it writes
 * {@code rec X[B]} once, with {@code #X} inside, instead of the body followed by the whole
 * {@code rec} again. The folded text is equivalent to the type (equal up to unfolding).
 */
public final class Printer {
    private final Folding folding;
    private final StringBuilder out = new StringBuilder();
    private final Deque<Object> pieces = new ArrayDeque<>();

    private Printer(Folding folding) {
        this.folding = folding;
    }

    public static String print(SessionType type) {
        return new Printer(null).run(type);
    }

    /** The canonical notation of one action. */
    public static String print(Action action) {
        return new Printer(null).run(action);
    }

    /** The notation of {@code type} with unfolded recursion folded back (see the class comment). */
    public static String printFolded(SessionType type) {
        return new Printer(new Folding(type)).run(type);
    }

    /** One sequence still to write (a whole sequence, not a payload). */
    private record Sequence(SessionType type) {
    }

    private String run(Object first) {
        pieces.push(first instanceof SessionType type ? new Sequence(type) : first);
        while (!pieces.isEmpty()) {
            Object piece = pieces.pop();
            // instanceof chains, not pattern switches, here and below: a pattern switch is linked through
            // SwitchBootstraps on first use, milliseconds in a fresh JVM's first session (issue 15).
            if (piece instanceof String text) {
                out.append(text);
            } else if (piece instanceof Sequence sequence) {
                sequence(sequence.type());
            } else if (piece instanceof Action action) {
                action(action);
            } else if (piece instanceof Payload payload) {
                payload(payload);
            } else {
                throw new IllegalStateException("unknown piece " + piece);
            }
        }
        return out.toString();
    }

    /** Queues the actions of {@code type}, '.' between them, first on top. */
    private void sequence(SessionType type) {
        List<Action> written = new ArrayList<>();
        SessionType rest = type;
        while (!rest.isEnd()) {
            Folding.Candidate folded = folding == null ? null : folding.match(rest);
            if (folded != null) {
                written.add(folded.rec());
                rest = folded.after(rest);
            } else {
                written.add(rest.head());
                rest = rest.tail();
            }
        }
        for (int i = written.size() - 1; i >= 0; i--) {
            pieces.push(written.get(i));
            if (i > 0) {
                pieces.push(".");
            }
        }
    }

    /** Queues the pieces of one action, first on top. */
    private void action(Action action) {
        if (action instanceof Action.Begin begin) {
            out.append(begin.side().keyword());
        } else if (action instanceof Action.Send send) {
            push("!<", send.payload(), ">");
        } else if (action instanceof Action.Receive receive) {
            push("?(", receive.payload(), ")");
        } else if (action instanceof Action.Select select) {
            choices("!{", select.branches());
        } else if (action instanceof Action.Branch branch) {
            choices("?{", branch.branches());
        } else if (action instanceof Action.OutWhile loop) {
            push("![", new Sequence(loop.body()), "]*");
        } else if (action instanceof Action.InWhile loop) {
            push("?[", new Sequence(loop.body()), "]*");
        } else if (action instanceof Action.Rec rec) {
            push("rec " + rec.variable() + "[", new Sequence(rec.body()), "]");
        } else if (action instanceof Action.RecVar variable) {
            out.append('#').append(variable.variable());
        } else if (action instanceof Action.ProtocolRef ref) {
            out.append("@(").append(ref.name()).append(')');
        } else if (action instanceof Action.DualRef ref) {
            out.append("^(").append(ref.name()).append(')');
        } else {
            throw new IllegalStateException("unknown action " + action.getClass().getName());
        }
    }

    private void payload(Payload payload) {
        if (payload instanceof Payload.SessionPayload session) {
            if (session.type().isEnd()) {
                out.append("end");
            } else {
                pieces.push(new Sequence(session.type()));
            }
        } else {
            out.append((Payload.JavaType) payload);
        }
    }

    private void push(String open, Object inner, String close) {
        out.append(open);
        pieces.push(close);
        pieces.push(inner);
    }

    private void choices(String open, Map<String, SessionType> branches) {
        out.append(open);
        pieces.push("}");
        List<Map.Entry<String, SessionType>> entries = new ArrayList<>(branches.entrySet());
        for (int i = entries.size() - 1; i >= 0; i--) {
            pieces.push(new Sequence(entries.get(i).getValue()));
            pieces.push((i > 0 ? ", " : "") + entries.get(i).getKey() + ": ");
        }
    }

    /**
     * The {@code rec} terms of a type and their unfoldings, indexed by the unfolding's first action,
     * so a sequence position is matched against the few candidates that can start there.
     */
    private static final class Folding {
        /** How many actions folding may compare in all before it gives up (printing stays linear). */
        private static final int BUDGET = 1_000_000;

        record Candidate(Action.Rec rec, SessionType unfolded) {
            /** What follows the unfolding in {@code sequence}, which starts with it. */
            SessionType after(SessionType sequence) {
                SessionType rest = sequence;
                for (int i = unfolded.actions().size(); i > 0; i--) {
                    rest = rest.tail();
                }
                return rest;
            }
        }

        private final Map<Action, List<Candidate>> byFirstAction = new HashMap<>();
        private int budget = BUDGET;

        Folding(SessionType type) {
            for (Action.Rec rec : recs(type)) {
                SessionType unfolded = Unfolding.substitute(rec.body(), rec.variable(), rec);
                if (!unfolded.isEnd() && unfolded != rec.body()) {
                    byFirstAction.computeIfAbsent(unfolded.head(), first -> new ArrayList<>())
                            .add(new Candidate(rec, unfolded));
                }
            }
            byFirstAction.values().forEach(candidates ->
                    candidates.sort(Comparator.comparingInt((Candidate c) -> c.unfolded().actions().size()).reversed()));
        }

        /** The longest unfolding {@code sequence} starts with, or null. */
        Candidate match(SessionType sequence) {
            if (budget <= 0) {
                return null;
            }
            List<Candidate> candidates = byFirstAction.get(sequence.head());
            if (candidates == null) {
                return null;
            }
            for (Candidate candidate : candidates) {
                if (startsWith(sequence, candidate.unfolded())) {
                    return candidate;
                }
            }
            return null;
        }

        private boolean startsWith(SessionType sequence, SessionType prefix) {
            SessionType s = sequence;
            for (SessionType p = prefix; !p.isEnd(); p = p.tail(), s = s.tail()) {
                if (--budget <= 0 || s.isEnd() || !s.head().equals(p.head())) {
                    return false;
                }
            }
            return true;
        }

        /** Every distinct {@code rec} term in {@code type}, payloads included, outermost first. */
        private static Set<Action.Rec> recs(SessionType type) {
            Set<Action.Rec> recs = new LinkedHashSet<>();
            Deque<SessionType> todo = new ArrayDeque<>();
            todo.push(type);
            while (!todo.isEmpty()) {
                for (Action action : todo.pop().actions()) {
                    if (action instanceof Action.Rec rec) {
                        recs.add(rec);
                    }
                    TypeRewriter.nested(action).forEach(todo::push);
                }
            }
            return recs;
        }
    }
}
