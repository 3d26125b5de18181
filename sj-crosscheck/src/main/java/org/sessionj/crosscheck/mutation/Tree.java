package org.sessionj.crosscheck.mutation;

import java.util.ArrayList;
import java.util.List;
import org.sessionj.crosscheck.program.Flow;
import org.sessionj.crosscheck.program.Side;
import org.sessionj.crosscheck.program.Stmt;

/**
 * Addressing and rebuilding the statement lists of a {@link Side}: a {@link Ref} names one list (the
 * session body or a method body, then pairs of statement index and nested-list index), and edits
 * return a new side, sharing every untouched statement.
 */
final class Tree {
    private Tree() {
    }

    /** What owns a statement list. */
    enum Owner { MAIN, METHOD, LOOP_BODY, LOOP_CONDITION, ARM, REC_BODY, WRAP }

    /**
     * One statement list.
     *
     * @param scope -1 for the session body, else the index of a session method
     * @param path pairs (statement index, nested-list index) from the scope's body to the list
     * @param owner what the list is the body of
     * @param recursions labels of the recursions a jump in the list may reach (none across a lambda, a
     *     class or a switch expression)
     */
    record Ref(int scope, List<Integer> path, Owner owner, List<String> recursions) {
        Ref {
            path = List.copyOf(path);
            recursions = List.copyOf(recursions);
        }
    }

    static List<Stmt> scopeBody(Side side, int scope) {
        return scope < 0 ? side.body() : side.methods().get(scope).body();
    }

    static List<Stmt> block(Side side, Ref ref) {
        List<Stmt> block = scopeBody(side, ref.scope());
        for (int i = 0; i < ref.path().size(); i += 2) {
            block = block.get(ref.path().get(i)).blocks().get(ref.path().get(i + 1));
        }
        return block;
    }

    /** Every statement list of {@code side}. */
    static List<Ref> all(Side side) {
        List<Ref> out = new ArrayList<>();
        collect(side.body(), new Ref(-1, List.of(), Owner.MAIN, List.of()), out);
        for (int m = 0; m < side.methods().size(); m++) {
            collect(side.methods().get(m).body(), new Ref(m, List.of(), Owner.METHOD, List.of()), out);
        }
        return out;
    }

    private static void collect(List<Stmt> block, Ref ref, List<Ref> out) {
        out.add(ref);
        for (int i = 0; i < block.size(); i++) {
            Stmt stmt = block.get(i);
            List<List<Stmt>> nested = stmt.blocks();
            for (int b = 0; b < nested.size(); b++) {
                List<Integer> path = new ArrayList<>(ref.path());
                path.add(i);
                path.add(b);
                List<String> recursions = ref.recursions();
                Owner owner;
                switch (stmt) {
                    case Stmt.Rec rec -> {
                        owner = Owner.REC_BODY;
                        recursions = new ArrayList<>(recursions);
                        recursions.add(rec.label());
                    }
                    case Stmt.OutLoop loop -> {
                        owner = b == 0 ? Owner.LOOP_BODY : Owner.LOOP_CONDITION;
                        if (b == 1) {
                            recursions = List.of();
                        }
                    }
                    case Stmt.InLoop loop -> owner = Owner.LOOP_BODY;
                    case Stmt.Wrap wrap -> {
                        owner = Owner.WRAP;
                        if (Flow.crossesBoundary(wrap.kind())) {
                            recursions = List.of();
                        }
                    }
                    default -> owner = Owner.ARM;
                }
                collect(nested.get(b), new Ref(ref.scope(), path, owner, recursions), out);
            }
        }
    }

    /** {@code side} with the list at {@code ref} replaced by {@code replacement}. */
    static Side replace(Side side, Ref ref, List<Stmt> replacement) {
        List<Stmt> body = rebuild(scopeBody(side, ref.scope()), ref.path(), 0, replacement);
        if (ref.scope() < 0) {
            return side.withBody(body);
        }
        List<Side.Method> methods = new ArrayList<>(side.methods());
        methods.set(ref.scope(), methods.get(ref.scope()).withBody(body));
        return side.withMethods(methods);
    }

    private static List<Stmt> rebuild(List<Stmt> block, List<Integer> path, int depth, List<Stmt> replacement) {
        if (depth == path.size()) {
            return replacement;
        }
        List<Stmt> out = new ArrayList<>(block);
        Stmt stmt = out.get(path.get(depth));
        List<List<Stmt>> nested = new ArrayList<>(stmt.blocks());
        int b = path.get(depth + 1);
        nested.set(b, rebuild(nested.get(b), path, depth + 2, replacement));
        out.set(path.get(depth), stmt.withBlocks(nested));
        return out;
    }

    /** {@code side} with {@code stmts} inserted at {@code index} of the list at {@code ref}. */
    static Side insert(Side side, Ref ref, int index, List<Stmt> stmts) {
        List<Stmt> block = new ArrayList<>(block(side, ref));
        block.addAll(index, stmts);
        return replace(side, ref, block);
    }

    /** {@code side} without the statement that is (identically) {@code target}. */
    static Side removeIdentical(Side side, Stmt target) {
        List<Side.Method> methods = new ArrayList<>();
        for (Side.Method method : side.methods()) {
            methods.add(method.withBody(without(method.body(), target)));
        }
        return new Side(side.role(), without(side.body(), target), methods);
    }

    private static List<Stmt> without(List<Stmt> block, Stmt target) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt stmt : block) {
            if (stmt == target) {
                continue;
            }
            List<List<Stmt>> nested = stmt.blocks();
            if (nested.isEmpty()) {
                out.add(stmt);
                continue;
            }
            List<List<Stmt>> rebuilt = new ArrayList<>();
            for (List<Stmt> inner : nested) {
                rebuilt.add(without(inner, target));
            }
            out.add(stmt.withBlocks(rebuilt));
        }
        return out;
    }

    /**
     * Whether {@code side} is a valid Java program as {@code JavaWriter} writes it: no statement after
     * one that cannot complete normally, and every jump inside a recursion of its label, not across a
     * lambda, class or switch expression (a {@code while (true)} never left would also make the code
     * after it unreachable: that is the first rule, through {@link Flow#completesNormally}).
     */
    static boolean valid(Side side) {
        for (Ref ref : all(side)) {
            List<Stmt> block = block(side, ref);
            for (int i = 0; i < block.size(); i++) {
                Stmt stmt = block.get(i);
                if (i < block.size() - 1 && !Flow.completesNormally(stmt)) {
                    return false;
                }
                if (stmt instanceof Stmt.Jump jump && !ref.recursions().contains(jump.label())) {
                    return false;
                }
            }
        }
        return true;
    }
}
