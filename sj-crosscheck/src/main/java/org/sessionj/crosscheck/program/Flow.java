package org.sessionj.crosscheck.program;

import java.util.List;
import org.sessionj.crosscheck.program.Stmt.Jump;
import org.sessionj.crosscheck.program.Stmt.Wrap;
import org.sessionj.crosscheck.program.Stmt.WrapKind;

/**
 * The two facts of Java's reachability rules (JLS 14.22) the writer and the mutator need: whether a
 * statement can complete normally (a statement after one that cannot is a compile error), and
 * whether a statement holds a jump (which may not cross a lambda, a class or a switch expression).
 */
public final class Flow {
    private Flow() {
    }

    /** Whether the last statement of {@code block} can complete normally (an empty block can). */
    public static boolean completesNormally(List<Stmt> block) {
        return block.isEmpty() || completesNormally(block.get(block.size() - 1));
    }

    /** Whether {@code stmt}, as {@link JavaWriter} writes it, can complete normally. */
    public static boolean completesNormally(Stmt stmt) {
        return switch (stmt) {
            case Jump jump -> jump.implicit();
            case Stmt.Select select -> select.arms().stream().anyMatch(arm -> completesNormally(arm.body()));
            case Stmt.Rec rec -> breaks(rec.body(), rec.label());
            case Wrap wrap -> switch (wrap.kind()) {
                case FINALLY, DO_ONCE, SYNCHRONIZED, LABELED_BLOCK -> completesNormally(wrap.body());
                default -> true;
            };
            default -> true; // acts, calls, loops with a non-constant condition, switches without default
        };
    }

    /** Whether {@code block} holds a {@code break label} (outside lambdas and classes). */
    private static boolean breaks(List<Stmt> block, String label) {
        for (Stmt stmt : block) {
            if (stmt instanceof Jump jump && !jump.recurse() && jump.label().equals(label)) {
                return true;
            }
            if (stmt instanceof Wrap wrap && crossesBoundary(wrap.kind())) {
                continue;
            }
            for (List<Stmt> nested : stmt.blocks()) {
                if (breaks(nested, label)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code stmt} holds a jump anywhere inside. */
    public static boolean hasJump(Stmt stmt) {
        if (stmt instanceof Jump) {
            return true;
        }
        for (List<Stmt> nested : stmt.blocks()) {
            for (Stmt inner : nested) {
                if (hasJump(inner)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a jump inside a construct of this kind could not reach a label outside it. */
    public static boolean crossesBoundary(WrapKind kind) {
        return switch (kind) {
            case LAMBDA, ANONYMOUS_CLASS, LOCAL_CLASS, ASSERT, SWITCH_EXPRESSION, CASE_GUARD, GENERIC_METHOD -> true;
            default -> false;
        };
    }
}
