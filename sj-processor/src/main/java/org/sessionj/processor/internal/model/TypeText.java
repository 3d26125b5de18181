package org.sessionj.processor.internal.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/**
 * Session types as diagnostics print them. Unfolding a recursion copies {@code rec X[B]} into its own
 * body, so a state inside a recursion round reads {@code !{MORE: rec X[… the whole body …], DONE: }};
 * here each such copy is printed folded, as {@code #X}, and the recursion is spelled out once at the
 * end ({@code where #X = rec X[…]}). Comparisons put the part where two states differ first and name
 * what they share after it.
 */
public final class TypeText {
    private static final int MAX_PRINTED = 160;

    private TypeText() {
    }

    /** {@code type} with every nested copy of a recursion folded to {@code #X}, and the recursions after it. */
    public static String folded(SessionType type) {
        if (type.isEnd()) {
            return "end";
        }
        Map<String, Action.Rec> copies = new LinkedHashMap<>();
        collectNested(type, true, copies);
        if (copies.isEmpty()) {
            return shorten(TypeModel.print(type));
        }
        String main = TypeModel.print(fold(type, copies, true));
        List<String> where = new ArrayList<>();
        copies.forEach((variable, rec) -> where.add("#" + variable + " = " + shorten(TypeModel.print(SessionType.of(rec)))));
        return shorten(main) + " (where " + String.join(", ", where) + ")";
    }

    /** One action, with nested recursion copies folded. */
    public static String foldedAction(Action action) {
        return folded(SessionType.of(action));
    }

    /**
     * Two states of one session side by side, the differing parts first: their longest common suffix
     * (what both go on with) is cut off and named once. {@code what} joins them, e.g.
     * {@code "%s on one path, %s on another"}.
     */
    public static String difference(SessionType left, SessionType right, String what) {
        List<Action> l = left.actions();
        List<Action> r = right.actions();
        int common = 0;
        while (common < l.size() && common < r.size()
                && l.get(l.size() - 1 - common).equals(r.get(r.size() - 1 - common))) {
            common++;
        }
        if (common == 0) {
            return String.format(java.util.Locale.ROOT, what, folded(left), folded(right));
        }
        SessionType leftPart = new SessionType(l.subList(0, l.size() - common));
        SessionType rightPart = new SessionType(r.subList(0, r.size() - common));
        SessionType rest = new SessionType(l.subList(l.size() - common, l.size()));
        String then = rest.isEnd() ? "" : "; both then continue with " + folded(rest);
        if (leftPart.isEnd() || rightPart.isEnd()) {
            // One path did something the other did not: name it.
            return "one path has done " + folded(leftPart.isEnd() ? rightPart : leftPart) + " and another has not"
                    + then;
        }
        return String.format(java.util.Locale.ROOT, what, folded(leftPart), folded(rightPart)) + then;
    }

    /** The labels of a choice, in order: {@code BUY, QUIT}. */
    public static String labels(Map<String, SessionType> branches) {
        return String.join(", ", branches.keySet());
    }

    private static void collectNested(SessionType type, boolean top, Map<String, Action.Rec> copies) {
        List<Action> actions = type.actions();
        for (int i = 0; i < actions.size(); i++) {
            Action action = actions.get(i);
            boolean nested = !(top && i == 0);
            switch (action) {
                case Action.Rec rec -> {
                    if (nested) {
                        Action.Rec known = copies.putIfAbsent(rec.variable(), rec);
                        if (known != null && !known.equals(rec)) {
                            copies.put(rec.variable(), null); // two different recursions named alike: keep both spelled out
                        }
                    }
                    collectNested(rec.body(), false, copies);
                }
                case Action.Select s -> s.branches().values().forEach(b -> collectNested(b, false, copies));
                case Action.Branch b -> b.branches().values().forEach(t -> collectNested(t, false, copies));
                case Action.OutWhile w -> collectNested(w.body(), false, copies);
                case Action.InWhile w -> collectNested(w.body(), false, copies);
                default -> { }
            }
        }
        copies.values().removeIf(java.util.Objects::isNull);
    }

    private static SessionType fold(SessionType type, Map<String, Action.Rec> copies, boolean top) {
        List<Action> out = new ArrayList<>();
        List<Action> actions = type.actions();
        for (int i = 0; i < actions.size(); i++) {
            Action action = actions.get(i);
            boolean nested = !(top && i == 0);
            out.add(switch (action) {
                case Action.Rec rec when nested && rec.equals(copies.get(rec.variable())) ->
                        new Action.RecVar(rec.variable());
                case Action.Rec rec -> new Action.Rec(rec.variable(), fold(rec.body(), copies, false));
                case Action.Select s -> new Action.Select(foldAll(s.branches(), copies));
                case Action.Branch b -> new Action.Branch(foldAll(b.branches(), copies));
                case Action.OutWhile w -> new Action.OutWhile(fold(w.body(), copies, false));
                case Action.InWhile w -> new Action.InWhile(fold(w.body(), copies, false));
                default -> action;
            });
        }
        return new SessionType(out);
    }

    private static Map<String, SessionType> foldAll(Map<String, SessionType> branches, Map<String, Action.Rec> copies) {
        Map<String, SessionType> out = new LinkedHashMap<>();
        branches.forEach((label, body) -> out.put(label, fold(body, copies, false)));
        return out;
    }

    private static String shorten(String text) {
        return text.length() <= MAX_PRINTED ? text : text.substring(0, MAX_PRINTED - 3) + "...";
    }
}
