package org.sessionj.processor.check;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import javax.lang.model.element.Element;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;

/**
 * Null tests of local socket variables ({@code s == null}, {@code s != null}, and conditions made of them
 * with {@code !}, {@code &&} and {@code ||}): what each branch of an {@code if}, a conditional expression
 * or a loop condition knows about the socket (adv10 F17, adv13 A8).
 *
 * <p>Invariant: <em>a socket variable is null, holds a socket, or is one of the two depending on the path
 * ({@link VarState.Nullable} for a live session, {@link VarState.Nullness#MAYBE} for an ended one); only a
 * null test reads the last kind, and each branch of the test starts knowing which it is</em>. A branch that
 * cannot run (the test of a socket that certainly holds a session, or certainly null) is not joined. A
 * socket holds an object whenever its state is a session, live or ended: a request, an accept and a
 * delegation receive never give null.
 *
 * <p>A {@code @Session} socket parameter holds its session for every checked caller (the literal {@code null},
 * an expression that may give it, or a variable that holds or may hold null is SJ025 at the call), but a
 * caller the checker never saw (reflection, a class compiled without the processor) may pass null: its null
 * branch runs, checked like any code, with the parameter holding null there, so {@code if (s == null)
 * return;} leaves nothing open (adv13 A9) and an action on {@code s} in that branch is SJ025 (adv14 A3).
 *
 * <p>The null branch of a local that certainly holds a socket ({@code SJSocket t = svc.request(); if (t ==
 * null) { … }}) never runs, but it is checked all the same (adv14 A6), with the local null there: its code
 * is the program's, and an error in it (another session's wrong action) would otherwise go unreported
 * where a later edit may make it run. Reporting the branch as unreachable instead would reject the
 * defensive {@code if (t == null) throw …;}, which is harmless. The local's null there is marked as one
 * that never happens ({@link #NEVER}): where that branch's end meets the other path, the local keeps the
 * other path's state ({@link #impossible}), so code after the test still sees the session it holds.
 */
final class NullTests {
    private final MethodChecker flow;

    NullTests(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * The states in which {@code condition}, evaluated into {@code state}, is true and false (null for one
     * that cannot happen); null when no part of the condition tests a tracked local socket for null.
     */
    FlowScanner.Branches split(ExpressionTree condition, FlowState<Element> state) {
        if (state == null) {
            return null;
        }
        ExpressionTree stripped = FlowScanner.strip(condition);
        if (stripped instanceof UnaryTree not && not.getKind() == Tree.Kind.LOGICAL_COMPLEMENT) {
            FlowScanner.Branches inner = split(not.getExpression(), state);
            return inner == null ? null : new FlowScanner.Branches(inner.otherwise(), inner.then());
        }
        if (!(stripped instanceof BinaryTree test)) {
            return null;
        }
        return switch (test.getKind()) {
            case CONDITIONAL_AND -> both(test, state);
            case CONDITIONAL_OR -> either(test, state);
            case EQUAL_TO, NOT_EQUAL_TO -> comparison(test, state);
            default -> null;
        };
    }

    /** {@code a && b}: true when both are; false when {@code a} is, or {@code a} is true and {@code b} false. */
    private FlowScanner.Branches both(BinaryTree test, FlowState<Element> state) {
        FlowScanner.Branches left = split(test.getLeftOperand(), state);
        FlowState<Element> leftTrue = left == null ? state : left.then();
        FlowState<Element> leftFalse = left == null ? state : left.otherwise();
        FlowScanner.Branches right = split(test.getRightOperand(), leftTrue);
        if (left == null && right == null) {
            return null;
        }
        FlowState<Element> rightTrue = right == null ? leftTrue : right.then();
        FlowState<Element> rightFalse = right == null ? leftTrue : right.otherwise();
        return new FlowScanner.Branches(rightTrue, flow.join(leftFalse, rightFalse, test, "the paths where this && is false"));
    }

    /** {@code a || b}: false when both are; true when {@code a} is, or {@code a} is false and {@code b} true. */
    private FlowScanner.Branches either(BinaryTree test, FlowState<Element> state) {
        FlowScanner.Branches left = split(test.getLeftOperand(), state);
        FlowState<Element> leftTrue = left == null ? state : left.then();
        FlowState<Element> leftFalse = left == null ? state : left.otherwise();
        FlowScanner.Branches right = split(test.getRightOperand(), leftFalse);
        if (left == null && right == null) {
            return null;
        }
        FlowState<Element> rightTrue = right == null ? leftFalse : right.then();
        FlowState<Element> rightFalse = right == null ? leftFalse : right.otherwise();
        return new FlowScanner.Branches(flow.join(leftTrue, rightTrue, test, "the paths where this || is true"), rightFalse);
    }

    /** {@code s == null} or {@code s != null} on a tracked local socket; null for any other comparison. */
    private FlowScanner.Branches comparison(BinaryTree test, FlowState<Element> state) {
        ExpressionTree left = FlowScanner.strip(test.getLeftOperand());
        ExpressionTree right = FlowScanner.strip(test.getRightOperand());
        ExpressionTree operand = isNullLiteral(right) ? left : isNullLiteral(left) ? right : null;
        Element socket = operand == null ? null : flow.trackedSocket(operand);
        if (socket == null) {
            return null;
        }
        VarState value = state.get(socket);
        FlowState<Element> whenNull;
        FlowState<Element> whenSocket;
        if (value instanceof VarState.Moved moved && moved.isNull()) {
            whenNull = state;
            whenSocket = null;
        } else if (value instanceof VarState.Moved moved && moved.nullness() == VarState.Nullness.MAYBE) {
            whenNull = state.with(socket, nullHere(test));
            whenSocket = state.with(socket, new VarState.Moved(moved.how()));
        } else if (value instanceof VarState.Nullable nullable) {
            whenNull = state.with(socket, nullHere(test));
            whenSocket = state.with(socket, nullable.session());
        } else if (value instanceof VarState.Unknown unknown && unknown.mayBeNull()) {
            whenNull = state.with(socket, nullHere(test));
            whenSocket = state.with(socket, unknown.withMayBeNull(false, unknown.closable()));
        } else if (value instanceof VarState.Live && socket.getKind() == javax.lang.model.element.ElementKind.PARAMETER) {
            whenNull = state.with(socket, nullHere(test)); // only an unchecked caller's null: checked all the same
            whenSocket = state;
        } else if (value instanceof VarState.Live || value instanceof VarState.Unknown
                || value instanceof VarState.Moved) {
            whenNull = state.with(socket, new VarState.Moved("found null by the test on line " + flow.line(test)
                    + NEVER, VarState.Nullness.NULL)); // a branch that never runs, checked all the same
            whenSocket = state;
        } else {
            return null;
        }
        boolean thenNonNull = test.getKind() == Tree.Kind.NOT_EQUAL_TO;
        return new FlowScanner.Branches(thenNonNull ? whenSocket : whenNull, thenNonNull ? whenNull : whenSocket);
    }

    /** Ends the text of a null that never happens (the null branch of a local that holds a socket). */
    static final String NEVER = " (a branch that never runs, as the variable holds a socket: checked all the same)";

    /** Whether {@code state} is the null of a branch that never runs (it does not join: the other path's state stands). */
    static boolean impossible(VarState state) {
        return state instanceof VarState.Moved moved && moved.isNull() && moved.how().endsWith(NEVER);
    }

    /** The state of a socket a null test found null. */
    private VarState nullHere(Tree at) {
        return new VarState.Moved("found null by the test on line " + flow.line(at), VarState.Nullness.NULL);
    }

    private static boolean isNullLiteral(ExpressionTree tree) {
        return tree instanceof LiteralTree literal && literal.getKind() == Tree.Kind.NULL_LITERAL;
    }
}
