package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;

/**
 * The arguments of a method or constructor call, in order, each handed to the rule its parameter
 * calls for: a tracked socket given to a {@code @Session} parameter runs that part of its session
 * ({@link SessionActionRules#sessionMethodCall}) once every argument is evaluated; one socket given twice to one call would let two
 * parameters act on one session (SJ030); a service or server socket given to a {@code @Session}
 * parameter must be of its protocol; any other argument may move a {@code @NoAlias} value.
 */
final class CallArguments {
    private final MethodChecker flow;

    CallArguments(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * Checks {@code arguments} of {@code call} (a method or constructor call) of {@code method}, in
     * evaluation order; the values they move are gone once all are evaluated ({@link NoAliasRules#beginArguments}).
     */
    void check(Tree call, ExecutableElement method, List<? extends ExpressionTree> arguments) {
        flow.noAlias.beginArguments(call);
        try {
            check(method, arguments);
        } finally {
            flow.noAlias.endArguments();
        }
    }

    /**
     * Whether {@code argument} may evaluate to the null literal: {@code null} itself, through parentheses and
     * casts, or as an arm of a conditional or a switch expression ({@code c ? null : null}, adv14 A3).
     */
    static boolean givesNull(ExpressionTree argument) {
        ExpressionTree stripped = FlowScanner.strip(argument);
        if (stripped instanceof com.sun.source.tree.TypeCastTree cast) {
            return givesNull(cast.getExpression());
        }
        if (stripped instanceof com.sun.source.tree.ConditionalExpressionTree conditional) {
            return givesNull(conditional.getTrueExpression()) || givesNull(conditional.getFalseExpression());
        }
        if (stripped instanceof com.sun.source.tree.SwitchExpressionTree expression) {
            boolean[] found = {false};
            new com.sun.source.util.TreeScanner<Void, Void>() {
                @Override
                public Void visitCase(com.sun.source.tree.CaseTree arm, Void unused) {
                    if (arm.getBody() instanceof ExpressionTree value) {
                        found[0] |= givesNull(value);
                        return null;
                    }
                    return super.visitCase(arm, unused);
                }

                @Override
                public Void visitYield(com.sun.source.tree.YieldTree yield, Void unused) {
                    found[0] |= givesNull(yield.getValue());
                    return null;
                }

                @Override
                public Void visitSwitchExpression(com.sun.source.tree.SwitchExpressionTree nested, Void unused) {
                    return nested == expression ? super.visitSwitchExpression(nested, unused) : null;
                }

                @Override
                public Void visitClass(com.sun.source.tree.ClassTree tree, Void unused) {
                    return null;
                }

                @Override
                public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree tree, Void unused) {
                    return null;
                }
            }.scan(expression, null);
            return found[0];
        }
        return stripped.getKind() == Tree.Kind.NULL_LITERAL;
    }

    private void check(ExecutableElement method, List<? extends ExpressionTree> arguments) {
        List<? extends VariableElement> parameters = method.getParameters();
        SessionApi api = flow.api;
        Set<Element> lent = new HashSet<>();
        // Java evaluates every argument before the callee runs: an argument acting on a socket lent
        // to this call (f(s, s.receiveInt()), f(s, g(s))) acts first, so the lending is checked last.
        List<Element> lentSockets = new ArrayList<>();
        List<Integer> lentAt = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            ExpressionTree argument = arguments.get(i);
            Element socket = flow.trackedSocket(argument);
            VariableElement parameter = i < parameters.size() ? parameters.get(i) : null;
            if (socket == null && parameter != null && api.isSocket(parameter.asType())
                    && givesNull(argument)
                    && flow.sessionParameters.of(parameter, null, flow.reporter).annotated()) {
                // A @Session parameter holds a session: null is none (as a variable holding null is, adv13 A9)
                flow.reporter.error(argument, Diagnostic.USE_AFTER_MOVE, parameter.getSimpleName().toString(),
                        "given null by this call of '" + method.getSimpleName()
                                + "' (pass a session: the method uses its @Session parameter as one)");
            } else if (socket != null && api.isQuery(method)) {
                flow.actions.usable(socket, argument); // reads the connection, no session action
            } else if (socket != null && parameter != null && api.isSocket(parameter.asType())
                    && flow.sessionParameters.of(parameter, null, flow.reporter).annotated()) {
                if (!lent.add(socket)) {
                    flow.linearity.lentTwice(socket, argument, method);
                } else {
                    lentSockets.add(socket);
                    lentAt.add(i);
                }
            } else if (parameter != null && (api.isService(parameter.asType()) || api.isServerSocket(parameter.asType()))
                    && flow.sessionParameters.of(parameter, null, flow.reporter).declared() != null) {
                if (flow.state != null && givesNull(argument)) {
                    // The method begins sessions of its @Session(protocol = …) parameter: null has none (adv14 A6)
                    boolean service = api.isService(parameter.asType());
                    flow.reporter.error(argument, Diagnostic.USE_AFTER_MOVE, parameter.getSimpleName().toString(),
                            "given null by this call of '" + method.getSimpleName() + "' (pass a "
                                    + (service ? "service" : "server socket") + ": the method "
                                    + (service ? "requests" : "accepts") + " sessions of its @Session(protocol = …) "
                                    + "parameter)");
                }
                flow.origins.endpointArgument(method, parameter, argument);
            } else {
                flow.noAliasValues.argument(parameter, argument);
            }
        }
        for (int k = 0; k < lentAt.size(); k++) {
            int i = lentAt.get(k);
            flow.actions.sessionMethodCall(lentSockets.get(k), method, parameters.get(i), arguments.get(i));
        }
    }
}
