package org.sessionj.processor.check;

import com.sun.source.tree.CaseTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.List;

/**
 * The expressions whose value a switch expression may take: each arrow arm's expression and each
 * {@code yield}'s value that belongs to it (not to a switch expression, lambda or class nested inside).
 */
final class SwitchArms {
    private SwitchArms() {
    }

    /** The value expressions of {@code expression}'s arms, in source order. */
    static List<ExpressionTree> values(SwitchExpressionTree expression) {
        List<ExpressionTree> values = new ArrayList<>();
        for (CaseTree arm : expression.getCases()) {
            if (arm.getBody() instanceof ExpressionTree value) {
                values.add(value);
            } else if (arm.getBody() != null) {
                yields(arm.getBody(), values);
            } else {
                for (var statement : arm.getStatements()) {
                    yields(statement, values);
                }
            }
        }
        return values;
    }

    private static void yields(com.sun.source.tree.Tree tree, List<ExpressionTree> values) {
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitYield(YieldTree yield, Void unused) {
                values.add(yield.getValue());
                return null;
            }

            @Override
            public Void visitSwitchExpression(SwitchExpressionTree nested, Void unused) {
                return null; // its yields are its own
            }

            @Override
            public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
                return null;
            }

            @Override
            public Void visitClass(ClassTree type, Void unused) {
                return null;
            }
        }.scan(tree, null);
    }
}
