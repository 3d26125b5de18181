package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import org.sessionj.processor.internal.flow.FlowState;

/**
 * Where code inside a try block may throw, so that its catch blocks see the state there ({@link ThrowSites}
 * says which sites may throw what): before each statement and each full expression that evaluates
 * anything, after each full expression that changed a session and may throw once it has (an unboxing,
 * an array store after a receive), where each call runs ({@link #callPoint}; a session action records
 * its own, {@link LinearityRules#actionPoint}) and at each {@code throw}. The points are recorded by
 * {@link LinearityRules} while a try block collects them.
 */
final class TryThrowPoints {
    private final MethodChecker flow;

    TryThrowPoints(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * Before {@code tree} (a child of {@code current}) is scanned while throw points are collected: the
     * points before it and its call's point; returns whether it is a full expression.
     */
    boolean before(Tree tree, TreePath current) {
        LinearityRules linearity = flow.linearity;
        if (tree instanceof StatementTree statement && ThrowSites.evaluates(statement)) {
            linearity.jvmThrowPoint();
        }
        boolean full = tree instanceof ExpressionTree && !(current != null && current.getLeaf() instanceof ExpressionTree);
        if (full) {
            linearity.jvmThrowPoint();
        }
        if (tree instanceof MethodInvocationTree call && !socketAction(call)) {
            callPoint(call, flow.trees.getElement(flow.pathOf(call)));
        } else if (tree instanceof NewClassTree construction) {
            callPoint(construction, flow.trees.getElement(flow.pathOf(construction)));
        }
        return full;
    }

    /**
     * After {@code tree} was scanned from state {@code before}: a full expression that changed a session
     * may still throw once it has, unless its last step is the call that changed it.
     */
    void after(Tree tree, boolean full, FlowState<Element> before, Tree parent) {
        if (full && flow.state != null && flow.state != before
                && !ThrowSites.endsWithItsLastCall((ExpressionTree) tree, parent, flow)) {
            flow.linearity.jvmThrowPoint();
        }
    }

    /**
     * Where a call other than a session action runs, once its arguments are evaluated: it may throw, and
     * a session failure too unless {@link ThrowSites#mayFailASession} says it cannot.
     */
    void callPoint(Tree call, Element callee) {
        if (flow.state == null || !flow.linearity.collectingThrowPoints()) {
            return;
        }
        if (ThrowSites.mayFailASession(call, callee, flow)) {
            flow.linearity.throwPoint();
        } else {
            flow.linearity.jvmThrowPoint();
        }
    }

    /** A {@code throw} statement, once its exception is evaluated. */
    void thrown(ThrowTree tree) {
        if (flow.state == null || !flow.linearity.collectingThrowPoints()) {
            return;
        }
        if (ThrowSites.mayBeASessionFailure(flow.trees.getTypeMirror(flow.pathOf(tree.getExpression())), flow)) {
            flow.linearity.throwPoint();
        } else {
            flow.linearity.jvmThrowPoint();
        }
    }

    /** Whether {@code call} is a session action on a tracked socket (it records its own {@link LinearityRules#actionPoint}). */
    private boolean socketAction(MethodInvocationTree call) {
        return call.getMethodSelect() instanceof MemberSelectTree select && flow.trackedSocket(select.getExpression()) != null
                && flow.trees.getElement(flow.pathOf(call)) instanceof ExecutableElement method
                && flow.api.isSocketClass(method.getEnclosingElement());
    }
}
