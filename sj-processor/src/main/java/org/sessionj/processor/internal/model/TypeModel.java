package org.sessionj.processor.internal.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;
import org.sessionj.types.Side;

/**
 * The processor's single door to the session-type model: every parse, print, dual, expansion and
 * well-formedness check goes through here, plus the operations only the checker needs (unfolding
 * recursion, stripping the begin action).
 */
public final class TypeModel {
    private static final int MAX_PRINTED = 120;

    private TypeModel() {
    }

    /** Parses SJ notation; fails with {@link ProtocolTextException} carrying the position. */
    public static SessionType parse(String text) {
        return InterimParser.parse(text);
    }

    /** Canonical SJ notation. */
    public static String print(SessionType type) {
        return InterimOperations.print(type);
    }

    /** SJ notation of one action, shortened if very long (for diagnostics). */
    public static String printAction(Action action) {
        return shorten(InterimOperations.print(action));
    }

    /** SJ notation of a type for diagnostics: {@code end} when terminated, shortened if very long. */
    public static String describe(SessionType type) {
        return type.isEnd() ? "end" : shorten(print(type));
    }

    private static String shorten(String text) {
        return text.length() <= MAX_PRINTED ? text : text.substring(0, MAX_PRINTED - 3) + "...";
    }

    /** The dual type. */
    public static SessionType dual(SessionType type) {
        return InterimOperations.dual(type);
    }

    /**
     * Inlines every {@code @(P)} and {@code ^(P)}, transitively; {@code resolver} gives the
     * (unexpanded) type of a referenced protocol. Fails with {@link ProtocolReferenceException}.
     */
    public static SessionType expand(SessionType type, Function<String, Optional<SessionType>> resolver) {
        return InterimOperations.expand(type, resolver);
    }

    /** Human-readable well-formedness problems; empty when the type is well formed. */
    public static List<String> wellFormednessProblems(SessionType type) {
        return InterimOperations.wellFormednessProblems(type);
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
     * Unfolds a leading {@code rec X[B]} (repeatedly) so that the head is a communication action:
     * {@code rec X[B].T} becomes {@code B[#X := rec X[B]].T}. Because {@code #X} is always the last
     * action of its sequence, the continuation {@code T} then follows both a recursive jump (after
     * the nested {@code rec}) and the recursion's exit.
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
        Function<SessionType, SessionType> sub = t -> substitute(t, variable, replacement);
        return switch (action) {
            case Action.Select s -> new Action.Select(InterimOperations.mapBranches(s.branches(), sub));
            case Action.Branch b -> new Action.Branch(InterimOperations.mapBranches(b.branches(), sub));
            case Action.OutWhile w -> new Action.OutWhile(sub.apply(w.body()));
            case Action.InWhile w -> new Action.InWhile(sub.apply(w.body()));
            // An inner rec binding the same name shadows it.
            case Action.Rec r -> r.variable().equals(variable) ? r : new Action.Rec(r.variable(), sub.apply(r.body()));
            default -> action;
        };
    }

    /** Whether {@code payload} is a session (delegation or service passing). */
    public static boolean isSessionPayload(Payload payload) {
        return payload instanceof Payload.SessionPayload;
    }
}
