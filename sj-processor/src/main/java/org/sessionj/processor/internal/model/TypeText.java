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

    /**
     * {@code type} with every nested copy of a recursion folded to {@code #X}, and the recursions after
     * it; a type of more than {@link #MAX_NODES} actions (nested ones counted) only by its first actions
     * and its length ({@link #abbreviated}).
     */
    public static String folded(SessionType type) {
        if (type.isEnd()) {
            return "end";
        }
        return type.size() > MAX_NODES ? abbreviated(type) : whole(type);
    }

    /** Types with more actions than this (nested ones counted) are printed abbreviated. */
    static final long MAX_NODES = 64;
    /** How many actions (nested ones counted) of an abbreviated type are printed, at least one top-level action. */
    static final long HEAD_NODES = 8;

    /**
     * A long type as its first top-level actions (about {@link #HEAD_NODES} actions, nested ones
     * counted) and how many top-level actions it has: {@code !<int>.!<int>.… (the first 8 of 3,000
     * actions)}. Invariant: <em>a printed type costs, in time and text, no more than its head</em>,
     * whatever its length: the checker describes a state at every throw point, and a call lending a
     * long session inside a try block has a state after each of its actions (adv11 A13: printed whole,
     * 3,000 of them cost seconds and a 20 KB message). Reads the type through {@code head()} and
     * {@code tail()}, which take constant time, and never its whole action list.
     */
    static String abbreviated(SessionType type) {
        List<Action> head = new ArrayList<>();
        long nodes = 0;
        SessionType rest = type;
        while (!rest.isEnd()) {
            long size = SessionType.of(rest.head()).size();
            if (!head.isEmpty() && nodes + size > HEAD_NODES) {
                break;
            }
            head.add(rest.head());
            nodes += size;
            rest = rest.tail();
        }
        String shown = whole(new SessionType(head));
        return rest.isEnd() ? shown : String.format(java.util.Locale.ROOT, "%s.… (the first %,d of %,d actions)",
                shown, head.size(), type.length());
    }

    private static String whole(SessionType type) {
        Map<String, Action.Rec> copies = new LinkedHashMap<>();
        collectNested(type, true, copies);
        if (copies.isEmpty()) {
            return shorten(TypeModel.print(type));
        }
        String main = TypeModel.print(fold(type, copies, true));
        List<String> where = new ArrayList<>();
        for (Map.Entry<String, Action.Rec> copy : copies.entrySet()) {
            where.add("#" + copy.getKey() + " = " + shorten(TypeModel.print(SessionType.of(copy.getValue()))));
        }
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
            // instanceof, not a pattern switch, and no lambdas: each would be linked afresh in every
            // compilation (javac loads the processor afresh), and diagnostics texts are built on the way
            if (action instanceof Action.Rec rec) {
                if (nested) {
                    Action.Rec known = copies.putIfAbsent(rec.variable(), rec);
                    if (known != null && !known.equals(rec)) {
                        copies.put(rec.variable(), null); // two different recursions named alike: keep both spelled out
                    }
                }
                collectNested(rec.body(), false, copies);
            } else if (action instanceof Action.Select s) {
                for (SessionType branch : s.branches().values()) {
                    collectNested(branch, false, copies);
                }
            } else if (action instanceof Action.Branch b) {
                for (SessionType branch : b.branches().values()) {
                    collectNested(branch, false, copies);
                }
            } else if (action instanceof Action.OutWhile w) {
                collectNested(w.body(), false, copies);
            } else if (action instanceof Action.InWhile w) {
                collectNested(w.body(), false, copies);
            }
        }
        for (java.util.Iterator<Action.Rec> it = copies.values().iterator(); it.hasNext(); ) {
            if (it.next() == null) {
                it.remove();
            }
        }
    }

    private static SessionType fold(SessionType type, Map<String, Action.Rec> copies, boolean top) {
        List<Action> out = new ArrayList<>();
        List<Action> actions = type.actions();
        for (int i = 0; i < actions.size(); i++) {
            Action action = actions.get(i);
            boolean nested = !(top && i == 0);
            Action folded = action;
            if (action instanceof Action.Rec rec) {
                folded = nested && rec.equals(copies.get(rec.variable())) ? new Action.RecVar(rec.variable())
                        : new Action.Rec(rec.variable(), fold(rec.body(), copies, false));
            } else if (action instanceof Action.Select s) {
                folded = new Action.Select(foldAll(s.branches(), copies));
            } else if (action instanceof Action.Branch b) {
                folded = new Action.Branch(foldAll(b.branches(), copies));
            } else if (action instanceof Action.OutWhile w) {
                folded = new Action.OutWhile(fold(w.body(), copies, false));
            } else if (action instanceof Action.InWhile w) {
                folded = new Action.InWhile(fold(w.body(), copies, false));
            }
            out.add(folded);
        }
        return new SessionType(out);
    }

    private static Map<String, SessionType> foldAll(Map<String, SessionType> branches, Map<String, Action.Rec> copies) {
        Map<String, SessionType> out = new LinkedHashMap<>();
        for (Map.Entry<String, SessionType> branch : branches.entrySet()) {
            out.put(branch.getKey(), fold(branch.getValue(), copies, false));
        }
        return out;
    }

    private static String shorten(String text) {
        return text.length() <= MAX_PRINTED ? text : text.substring(0, MAX_PRINTED - 3) + "...";
    }
}
