package org.sessionj.processor.internal.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sessionj.types.ProtocolResolver;
import org.sessionj.types.Action;
import org.sessionj.types.ParsedProtocol;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.ProtocolProblem;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;
import org.sessionj.types.Side;

/**
 * The processor's single door to the session-type model ({@link SessionTypes}), translating its
 * exceptions into the processor's, plus the operations only the checker needs (unfolding
 * recursion, stripping the begin action, short descriptions for diagnostics).
 */
public final class TypeModel {
    private TypeModel() {
    }

    /** Parses SJ notation keeping node positions; fails with {@link ProtocolTextException}. */
    public static ParsedProtocol parseWithPositions(String text) {
        try {
            return SessionTypes.parseWithPositions(text);
        } catch (ProtocolException e) {
            throw new ProtocolTextException(e.detail(), Math.max(e.line(), 1), Math.max(e.column(), 1), e.excerpt());
        }
    }

    /** Parses SJ notation; fails with {@link ProtocolTextException} carrying the position. */
    public static SessionType parse(String text) {
        return parseWithPositions(text).type();
    }

    /** 1-based line and column of a 0-based offset in {@code text} ({1, 1} when unknown). */
    public static int[] lineColumn(String text, int offset) {
        if (offset < 0) {
            return new int[] {1, 1};
        }
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new int[] {line, offset - lineStart + 1};
    }

    /**
     * The line of {@code text} holding {@code offset}, and under it a caret at the offset's column
     * (tabs kept, so the caret lines up).
     */
    public static String excerpt(String text, int offset) {
        int at = Math.max(0, Math.min(offset, text.length()));
        int lineStart = text.lastIndexOf('\n', at - 1) + 1;
        int lineEnd = text.indexOf('\n', at);
        String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd);
        StringBuilder caret = new StringBuilder();
        for (int i = lineStart; i < at; i++) {
            caret.append(text.charAt(i) == '\t' ? '\t' : ' ');
        }
        return line + "\n" + caret + "^";
    }

    /** Canonical SJ notation. */
    public static String print(SessionType type) {
        return SessionTypes.print(type);
    }

    /** SJ notation of one action, shortened if very long (for diagnostics). */
    public static String printAction(Action action) {
        return TypeText.foldedAction(action);
    }

    /**
     * SJ notation of a type for diagnostics: {@code end} when terminated, recursion copies folded
     * ({@link TypeText#folded}), shortened if very long.
     */
    public static String describe(SessionType type) {
        return TypeText.folded(type);
    }

    /** The dual type. */
    public static SessionType dual(SessionType type) {
        return SessionTypes.dual(type);
    }

    /**
     * Inlines every {@code @(P)} and {@code ^(P)}, transitively; {@code resolver} gives the
     * (unexpanded) type of a referenced protocol. Fails with {@link ProtocolReferenceException}.
     */
    public static SessionType expand(SessionType type, ProtocolResolver resolver) {
        try {
            return SessionTypes.expand(type, resolver);
        } catch (ProtocolException e) {
            throw new ProtocolReferenceException(e.detail());
        }
    }

    /** Well-formedness problems of a parsed protocol, each with its 1-based line and column when known. */
    public static List<String> wellFormednessProblems(ParsedProtocol parsed) {
        List<String> out = new ArrayList<>();
        for (ProtocolProblem problem : parsed.problems()) {
            int[] at = lineColumn(parsed.text(), problem.offset());
            out.add(problem.offset() < 0 ? problem.message()
                    : problem.message() + " (line " + at[0] + ", column " + at[1] + ")\n"
                            + excerpt(parsed.text(), problem.offset()));
        }
        return out;
    }

    /** Human-readable well-formedness problems; empty when the type is well formed. */
    public static List<String> wellFormednessProblems(SessionType type) {
        List<String> out = new ArrayList<>(); // a loop, not a stream: no lambda linked per compilation
        for (ProtocolProblem problem : SessionTypes.wellFormednessProblems(type)) {
            out.add(problem.message());
        }
        return List.copyOf(out);
    }

    /** The side a type begins with, if its first action is a begin. */
    public static Optional<Side> beginSide(SessionType type) {
        return !type.isEnd() && type.head() instanceof Action.Begin b ? Optional.of(b.side()) : Optional.empty();
    }

    /** The type without its leading begin action (unchanged if it has none). */
    public static SessionType stripBegin(SessionType type) {
        return beginSide(type).isPresent() ? type.tail() : type;
    }

    /**
     * Whether two types have the same behaviour: equal, equal once their leading recursions are
     * unfolded, or equivalent up to unfolding and renaming of recursion variables
     * ({@link SessionTypes#equivalent}); an ill-formed type is the same only as an equal one (its
     * problem is reported where it is declared).
     */
    public static boolean sameBehaviour(SessionType left, SessionType right) {
        if (left.equals(right) || unfold(left).equals(unfold(right))) {
            return true;
        }
        try {
            return SessionTypes.equivalent(left, right);
        } catch (ProtocolException illFormed) {
            return false;
        }
    }

    /**
     * Unfolds a leading {@code rec X[B]} (repeatedly) so that the head is a communication action:
     * {@code rec X[B].T} becomes {@code B[#X := rec X[B]].T}. Because {@code #X} is always the last
     * action of its sequence, the continuation {@code T} then follows both a recursive jump (after
     * the nested {@code rec}) and the recursion's exit; and the state after a full round is the
     * folded {@code rec X[B].T} again, so loop back edges compare equal.
     */
    public static SessionType unfold(SessionType type) {
        SessionType current = type;
        int guard = 0;
        while (!current.isEnd() && current.head() instanceof Action.Rec rec && guard++ < 64) {
            SessionType body = substitute(rec.body(), rec.variable(), SessionType.of(rec));
            current = body.then(current.tail());
        }
        return current;
    }

    private static SessionType substitute(SessionType type, String variable, SessionType replacement) {
        List<Action> out = new ArrayList<>();
        for (Action action : type.actions()) {
            if (action instanceof Action.RecVar v && v.variable().equals(variable)) {
                out.addAll(replacement.actions());
            } else {
                out.add(substituteInside(action, variable, replacement));
            }
        }
        return new SessionType(out);
    }

    private static Action substituteInside(Action action, String variable, SessionType replacement) {
        // instanceof, not a pattern switch, and no lambda: either would be linked afresh in every
        // compilation (the processor is loaded afresh), and unfold runs at every session action
        if (action instanceof Action.Select s) {
            return new Action.Select(substituteBranches(s.branches(), variable, replacement));
        } else if (action instanceof Action.Branch b) {
            return new Action.Branch(substituteBranches(b.branches(), variable, replacement));
        } else if (action instanceof Action.OutWhile w) {
            return new Action.OutWhile(substitute(w.body(), variable, replacement));
        } else if (action instanceof Action.InWhile w) {
            return new Action.InWhile(substitute(w.body(), variable, replacement));
        } else if (action instanceof Action.Rec r) {
            // An inner rec binding the same name shadows it.
            return r.variable().equals(variable) ? r : new Action.Rec(r.variable(), substitute(r.body(), variable, replacement));
        }
        return action;
    }

    private static Map<String, SessionType> substituteBranches(Map<String, SessionType> branches, String variable,
            SessionType replacement) {
        Map<String, SessionType> out = new LinkedHashMap<>();
        for (Map.Entry<String, SessionType> branch : branches.entrySet()) {
            out.put(branch.getKey(), substitute(branch.getValue(), variable, replacement));
        }
        return out;
    }
}
