package org.sessionj.processor.check;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.VariableElement;

/**
 * The value of a constant expression (JLS 15.29) as javac computes it, for the forms a label is written
 * in: literals, constant variables ({@code static final String PREFIX = "…"}), parentheses, string
 * concatenation ({@code PREFIX + "A"}, {@code "" + 'A'}), {@code int}/{@code long} arithmetic inside it,
 * casts to {@code String} and conditionals on a constant condition. Anything else is "not known to be a
 * constant" (null): a label the checker cannot read is SJ015, never a guess.
 */
final class ConstantExpressions {
    /** Deeper expressions are not folded (javac itself stops far below the thread's stack). */
    private static final int MAX_DEPTH = 200;

    private ConstantExpressions() {
    }

    /**
     * The value of {@code expression}, or null when it is not a constant of these forms; {@code flow}
     * resolves names (no lambda: see NoPatternSwitchTest).
     */
    static Object value(ExpressionTree expression, FlowScanner flow) {
        return value(expression, flow, 0);
    }

    private static Object value(ExpressionTree expression, FlowScanner flow, int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        ExpressionTree tree = FlowScanner.strip(expression);
        if (tree instanceof LiteralTree literal) {
            return literal.getValue(); // null for the null literal: not a constant
        }
        if (tree instanceof IdentifierTree || tree instanceof MemberSelectTree) {
            return flow.elementOf(tree) instanceof VariableElement variable
                    && variable.getKind() != ElementKind.ENUM_CONSTANT ? variable.getConstantValue() : null;
        }
        if (tree instanceof TypeCastTree cast) {
            Object operand = value(cast.getExpression(), flow, depth + 1);
            return operand instanceof String && cast.getType().toString().matches("(java\\.lang\\.)?String")
                    ? operand : null;
        }
        if (tree instanceof ConditionalExpressionTree conditional) {
            Object condition = value(conditional.getCondition(), flow, depth + 1);
            if (!(condition instanceof Boolean chosen)) {
                return null;
            }
            // Both arms must be constants too (JLS 15.29), though only one is the value.
            Object whenTrue = value(conditional.getTrueExpression(), flow, depth + 1);
            Object whenFalse = value(conditional.getFalseExpression(), flow, depth + 1);
            return whenTrue == null || whenFalse == null ? null : chosen ? whenTrue : whenFalse;
        }
        if (tree instanceof BinaryTree binary) {
            Object left = value(binary.getLeftOperand(), flow, depth + 1);
            Object right = value(binary.getRightOperand(), flow, depth + 1);
            return left == null || right == null ? null : binary(binary.getKind(), left, right);
        }
        return null;
    }

    private static Object binary(Tree.Kind kind, Object left, Object right) {
        if (kind == Tree.Kind.PLUS && (left instanceof String || right instanceof String)) {
            return String.valueOf(left) + right; // string conversion as javac folds it (JLS 5.1.11)
        }
        if (!integral(left) || !integral(right)) {
            return null;
        }
        boolean wide = left instanceof Long || right instanceof Long;
        long l = ((Number) number(left)).longValue();
        long r = ((Number) number(right)).longValue();
        if ((kind == Tree.Kind.DIVIDE || kind == Tree.Kind.REMAINDER) && r == 0) {
            return null; // javac reports the division by zero
        }
        long result;
        switch (kind) {
            case PLUS -> result = l + r;
            case MINUS -> result = l - r;
            case MULTIPLY -> result = l * r;
            case DIVIDE -> result = wide ? l / r : (int) l / (int) r;
            case REMAINDER -> result = wide ? l % r : (int) l % (int) r;
            default -> {
                return null;
            }
        }
        return wide ? (Object) result : (Object) (int) result;
    }

    private static boolean integral(Object value) {
        return value instanceof Integer || value instanceof Long || value instanceof Character
                || value instanceof Short || value instanceof Byte;
    }

    private static Object number(Object value) {
        return value instanceof Character c ? (int) c : value;
    }
}
