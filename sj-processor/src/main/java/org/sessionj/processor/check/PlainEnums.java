package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.Trees;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;

/**
 * Whether initializing an enum runs code of the program: the first use of an enum ({@code E.X}, or
 * {@code s.inbranch(E.class)}, which makes the label a constant of E) runs its static initializer,
 * which could read a {@code @NoAlias} field while it is moved out (SJ044). A <em>plain</em> enum's
 * initializer runs none: its constants have no bodies and only literal arguments, it has no
 * initializer blocks, no field initialized other than by a literal, constructors that only store their parameters or literals in
 * its fields, and no superinterfaces (whose default methods would make them initialized too, JLS
 * 12.4.2). Only an enum compiled from source can be seen to be plain.
 */
final class PlainEnums {
    private PlainEnums() {
    }

    static boolean plain(TypeElement type, Trees trees) {
        if (type.getKind() != ElementKind.ENUM || !type.getInterfaces().isEmpty()
                || !(trees.getTree(type) instanceof ClassTree tree)) {
            return false;
        }
        for (Tree member : tree.getMembers()) {
            boolean plainMember = switch (member) {
                case VariableTree variable -> plainField(variable);
                case MethodTree method -> method.getReturnType() != null || plainConstructor(method);
                case BlockTree block -> false; // a static or instance initializer
                case ClassTree nested -> true; // not initialized with its enclosing enum
                default -> false;
            };
            if (!plainMember) {
                return false;
            }
        }
        return true;
    }

    private static boolean plainField(VariableTree variable) {
        ExpressionTree initializer = variable.getInitializer();
        if (initializer instanceof NewClassTree constant) { // an enum constant: E(args) { body }
            return constant.getClassBody() == null && constant.getArguments().stream().allMatch(PlainEnums::literal);
        }
        if (initializer == null) {
            return true;
        }
        return literal(initializer);
    }

    /** A constructor whose statements only store a parameter or a literal in a field ({@code this.x = x}). */
    private static boolean plainConstructor(MethodTree constructor) {
        if (constructor.getBody() == null) {
            return true;
        }
        for (StatementTree statement : constructor.getBody().getStatements()) {
            if (statement instanceof ExpressionStatementTree expression
                    && expression.getExpression() instanceof MethodInvocationTree call
                    && call.getMethodSelect() instanceof IdentifierTree name && name.getName().contentEquals("super")
                    && call.getArguments().isEmpty()) {
                continue; // javac's implicit super() (an enum cannot call another constructor of Enum)
            }
            if (!(statement instanceof ExpressionStatementTree expression
                    && expression.getExpression() instanceof AssignmentTree assignment
                    && fieldOfThis(assignment.getVariable())
                    && (parameter(constructor, assignment.getExpression()) || literal(assignment.getExpression())))) {
                return false;
            }
        }
        return true;
    }

    private static boolean parameter(MethodTree constructor, ExpressionTree value) {
        return FlowScanner.strip(value) instanceof IdentifierTree name && constructor.getParameters().stream()
                .anyMatch(parameter -> parameter.getName().contentEquals(name.getName()));
    }

    private static boolean fieldOfThis(ExpressionTree target) {
        return target instanceof IdentifierTree || target instanceof MemberSelectTree select
                && select.getExpression() instanceof IdentifierTree owner && owner.getName().contentEquals("this");
    }

    private static boolean literal(ExpressionTree expression) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        return stripped instanceof LiteralTree
                || stripped instanceof UnaryTree unary && unary.getExpression() instanceof LiteralTree;
    }
}
