package org.sessionj.processor.check;

import com.sun.source.tree.AssertTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreePath;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * What a use of a {@code @NoAlias} value does, read from where it stands in the tree: a whole-value
 * use moves the value (into a variable, a call, a return, an array, a lambda, ...), a use through it
 * ({@code x[i]}, {@code x.f}, {@code x.m()}, comparisons) only reads it, and an argument of a JDK
 * method that keeps nothing ({@link #BORROWING}) only borrows it.
 */
final class MoveContexts {
    private final MethodChecker flow;

    MoveContexts(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * How a whole-value use at {@code path} moves the value (e.g. "into a call of 'f'"), or null when it
     * only reads through it ({@code x[i]}, {@code x.f}, {@code x.m()}, comparisons, ...).
     */
    static String moveContext(TreePath path) {
        TreePath parentPath = path.getParentPath();
        Tree innermost = path.getLeaf();
        while (true) {
            Tree parent = parentPath.getLeaf();
            if (parent instanceof ParenthesizedTree || parent instanceof TypeCastTree
                    || parent instanceof ConditionalExpressionTree conditional && conditional.getCondition() != innermost) {
                innermost = parent;
                parentPath = parentPath.getParentPath();
            } else if (parent instanceof SwitchExpressionTree switchExpression
                    && switchExpression.getExpression() != innermost) {
                innermost = parent; // an arm's value, scanned with the switch expression as parent
                parentPath = parentPath.getParentPath();
            } else if (parent instanceof YieldTree
                    || parent instanceof CaseTree caseTree && caseTree.getBody() == innermost
                            && parentPath.getParentPath().getLeaf() instanceof SwitchExpressionTree) {
                // The value of a switch expression's arm is the switch expression's value.
                TreePath up = parentPath;
                while (up != null && !(up.getLeaf() instanceof SwitchExpressionTree)) {
                    up = up.getParentPath();
                }
                if (up == null) {
                    return null;
                }
                innermost = up.getLeaf();
                parentPath = up.getParentPath();
            } else {
                break;
            }
        }
        Tree child = innermost;
        // instanceof, not a pattern switch: javac loads the processor afresh for every compilation, and
        // each switch's bootstrap would be linked cold every time (NoPatternSwitchTest)
        Tree parent = parentPath.getLeaf();
        if (parent instanceof InstanceOfTree test) {
            return test.getPattern() != null ? "into a pattern variable" : null;
        } else if (parent instanceof MemberReferenceTree reference) {
            return reference.getQualifierExpression() == child ? "into a bound method reference" : null;
        } else if (parent instanceof VariableTree variable) {
            return "into '" + variable.getName() + "'";
        } else if (parent instanceof AssignmentTree assignment) {
            return assignment.getExpression() == child ? "into '" + assignment.getVariable() + "'" : null;
        } else if (parent instanceof MethodInvocationTree call) {
            return call.getArguments().contains(child) ? "into a call of '" + FlowScanner.calleeName(call) + "'" : null;
        } else if (parent instanceof NewClassTree creation) {
            return creation.getArguments().contains(child) ? "into a constructor call" : null;
        } else if (parent instanceof ReturnTree) {
            return "by a return";
        } else if (parent instanceof NewArrayTree) {
            return "into an array";
        } else if (parent instanceof LambdaExpressionTree) {
            return "out of a lambda";
        }
        return null;
    }

    /**
     * JDK methods that only read or write the elements of the arrays they are given and keep no
     * reference to them (nor return one): passing a {@code @NoAlias} array to them is a read through
     * it, like {@code x[i]}. ({@code Arrays.asList}, {@code Arrays.stream} and
     * {@code Objects.requireNonNull} keep or return their argument and are not here.)
     */
    private static final Set<String> BORROWING = Set.of("java.lang.System.arraycopy", "java.util.Arrays.fill",
            "java.util.Arrays.sort", "java.util.Arrays.parallelSort", "java.util.Arrays.toString",
            "java.util.Arrays.deepToString", "java.util.Arrays.equals", "java.util.Arrays.deepEquals",
            "java.util.Arrays.hashCode", "java.util.Arrays.deepHashCode", "java.util.Arrays.copyOf",
            "java.util.Arrays.copyOfRange", "java.util.Arrays.binarySearch", "java.util.Arrays.mismatch",
            "java.util.Arrays.compare", "java.util.Arrays.setAll", "java.util.Arrays.parallelSetAll",
            "java.util.Arrays.parallelPrefix");

    /** Whether the use at {@code path} is an argument of a JDK method that only borrows it ({@link #BORROWING}). */
    boolean borrowedBy(TreePath path) {
        Tree child = path.getLeaf();
        for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
            Tree leaf = p.getLeaf();
            if (leaf instanceof ParenthesizedTree || leaf instanceof TypeCastTree) {
                child = leaf;
                continue;
            }
            if (leaf instanceof MethodInvocationTree call && call.getArguments().contains(child)
                    && flow.trees.getElement(p) instanceof ExecutableElement method
                    && method.getEnclosingElement() instanceof TypeElement owner) {
                return BORROWING.contains(owner.getQualifiedName() + "." + method.getSimpleName());
            }
            return false;
        }
        return false;
    }

    /** Whether the use at {@code path} is (through parentheses, casts, conditionals) an argument of {@code call}. */
    static boolean isArgumentOf(TreePath path, Tree call) {
        for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
            Tree leaf = p.getLeaf();
            if (leaf == call) {
                return true;
            }
            if (!(leaf instanceof ParenthesizedTree || leaf instanceof TypeCastTree
                    || leaf instanceof ConditionalExpressionTree)) {
                return false;
            }
        }
        return false;
    }

    /**
     * The detail of an {@code assert} ({@code assert c : d}) goes to {@code new AssertionError(d)}, which
     * keeps it as the error's cause when it is a Throwable: a {@code @NoAlias} detail is moved there.
     */
    boolean throwableDetail(TreePath path) {
        TreePath parent = path.getParentPath();
        while (parent != null && (parent.getLeaf() instanceof ParenthesizedTree || parent.getLeaf() instanceof TypeCastTree)) {
            parent = parent.getParentPath();
        }
        if (parent == null || !(parent.getLeaf() instanceof AssertTree check)
                || check.getDetail() == null || FlowScanner.strip(check.getDetail()) != path.getLeaf()) {
            return false;
        }
        TypeMirror type = flow.trees.getTypeMirror(path);
        return type != null && flow.types.isAssignable(type,
                flow.elements.getTypeElement("java.lang.Throwable").asType());
    }

}
