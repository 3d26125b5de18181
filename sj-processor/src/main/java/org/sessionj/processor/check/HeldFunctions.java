package org.sessionj.processor.check;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;

/**
 * A functional value held in a local variable and run later (adv19 c8: {@code Consumer<String> c = C8::book;
 * try { c.accept(in); } catch (DateTimeParseException e) { … }}): the method reference or lambda runs where the
 * variable's functional method is called, not where it stands, so an unchecked exit of its method or body meets
 * the handlers around those calls ({@link UncheckedExits}). Followed only where the value is known: a local
 * variable initialised with a method reference or a lambda, never assigned again, and used only as the receiver
 * of calls of its functional interface's abstract method ({@code c.accept(x)}) — <em>held</em>. A value that
 * escapes (given to a call, stored, returned) is taken to run where it stands, as one given to a JDK call is
 * (adv18 A6, adv19 A1); one read from a parameter or a field is not followed (docs/diagnostics.md).
 */
final class HeldFunctions {
    private HeldFunctions() {
    }

    /**
     * The calls that run the method reference or lambda at {@code value} (a local variable's initializer), each
     * as its path, when the value is held (see the class comment); else null. adv21 B2: also an object of a class
     * of the program that implements a JDK functional interface ({@code Runnable r = new Runnable() { … }}), held
     * when the variable is used only as the receiver of calls (of the interface's method, or of the class's own).
     */
    static List<TreePath> runs(TreePath value, Trees trees) {
        Tree leaf = value.getLeaf();
        boolean object = leaf instanceof com.sun.source.tree.NewClassTree;
        if (!(leaf instanceof LambdaExpressionTree || leaf instanceof MemberReferenceTree || object)) {
            return null;
        }
        TreePath declaration = value.getParentPath();
        if (declaration == null || !(declaration.getLeaf() instanceof VariableTree variable)
                || variable.getInitializer() != leaf || !(trees.getElement(declaration) instanceof Element var)
                || var.getKind() != ElementKind.LOCAL_VARIABLE) {
            return null;
        }
        TreePath body = enclosingBody(declaration);
        if (body == null) {
            return null;
        }
        List<TreePath> runs = new ArrayList<>();
        boolean[] escapes = {false};
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree identifier, Void unused) {
                if (!escapes[0] && var.equals(trees.getElement(getCurrentPath()))) {
                    TreePath run = receiverCall(getCurrentPath(), trees, !object);
                    if (run == null) {
                        escapes[0] = true; // given away, stored or assigned: where it runs is not known here
                    } else {
                        runs.add(run);
                    }
                }
                return super.visitIdentifier(identifier, unused);
            }
        }.scan(body, null);
        return escapes[0] ? null : runs;
    }

    /**
     * The value {@code call} runs, when it calls the functional method of a held local variable ({@code c.accept(in)}
     * with {@code c} held: see the class comment): the variable's initializer, a method reference or a lambda; else null.
     */
    static TreePath valueRun(TreePath call, Trees trees) {
        if (!(call.getLeaf() instanceof MethodInvocationTree invocation)
                || !(invocation.getMethodSelect() instanceof MemberSelectTree select)
                || !(FlowScanner.strip(select.getExpression()) instanceof IdentifierTree)
                || !(trees.getElement(call) instanceof ExecutableElement method)
                || !method.getModifiers().contains(Modifier.ABSTRACT)) {
            return null;
        }
        Element var = trees.getElement(new TreePath(new TreePath(call, select), select.getExpression()));
        if (var == null || var.getKind() != ElementKind.LOCAL_VARIABLE) {
            return null;
        }
        TreePath body = enclosingBody(call);
        TreePath initializer = body == null ? null : initializerOf(var, body, trees);
        return initializer != null && runs(initializer, trees) != null ? initializer : null;
    }

    /**
     * adv21 B1: the parameter whose functional method {@code call} calls ({@code task.run()} in
     * {@code static void runSafely(Runnable task)}), when it is a parameter of the method the call is in (not of a
     * lambda there); else null. A function given for it runs here when the method only calls it
     * ({@link FunctionFates#followedParameter}).
     */
    static Element parameterRun(TreePath call, Trees trees) {
        if (!(call.getLeaf() instanceof MethodInvocationTree invocation)
                || !(invocation.getMethodSelect() instanceof MemberSelectTree select)
                || !(FlowScanner.strip(select.getExpression()) instanceof IdentifierTree)
                || !(trees.getElement(call) instanceof ExecutableElement method)
                || !method.getModifiers().contains(Modifier.ABSTRACT)) {
            return null;
        }
        Element var = trees.getElement(new TreePath(new TreePath(call, select), select.getExpression()));
        TreePath body = var == null || var.getKind() != ElementKind.PARAMETER ? null : enclosingBody(call);
        return body != null && trees.getElement(body) instanceof ExecutableElement enclosing
                && enclosing.getParameters().contains(var) ? var : null;
    }

    /**
     * adv21 B1: whether the method at {@code body} uses its parameter {@code parameter} only as the receiver of calls
     * of its functional method ({@code task.run()}), in its body or the lambdas there: a function given for it runs
     * at those calls and nowhere else.
     */
    static boolean onlyCalled(TreePath body, Element parameter, Trees trees) {
        if (!(body.getLeaf() instanceof MethodTree method) || method.getBody() == null) {
            return false;
        }
        boolean[] other = {false};
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree identifier, Void unused) {
                if (!other[0] && identifier.getName().contentEquals(parameter.getSimpleName())
                        && parameter.equals(trees.getElement(getCurrentPath()))) {
                    other[0] = functionalCall(getCurrentPath(), trees) == null;
                }
                return super.visitIdentifier(identifier, unused);
            }
        }.scan(new TreePath(body, method.getBody()), null);
        return !other[0];
    }

    /**
     * The method reference or lambda that the local variable named at {@code use} holds wherever it is read, or
     * null: the variable is initialised with one and never assigned again. Unlike a held value ({@link #runs}), it
     * may be given away: ElementConsumers reads what its code does with what it is given ({@code Consumer<E> c =
     * e -> total += e.v(); xs.forEach(c);} is read as the lambda), not where it runs.
     */
    static TreePath fixedValue(TreePath use, Trees trees) {
        if (!(use.getLeaf() instanceof IdentifierTree) || !(trees.getElement(use) instanceof Element var)
                || var.getKind() != ElementKind.LOCAL_VARIABLE) {
            return null;
        }
        TreePath body = enclosingBody(use);
        TreePath initializer = body == null ? null : initializerOf(var, body, trees);
        if (initializer == null || !(initializer.getLeaf() instanceof LambdaExpressionTree
                || initializer.getLeaf() instanceof MemberReferenceTree)) {
            return null;
        }
        boolean[] assigned = {false};
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitAssignment(com.sun.source.tree.AssignmentTree assignment, Void unused) {
                TreePath target = new TreePath(getCurrentPath(), assignment.getVariable());
                assigned[0] |= var.equals(trees.getElement(target));
                return super.visitAssignment(assignment, unused);
            }
        }.scan(body, null);
        return assigned[0] ? null : initializer;
    }

    /** The initializer of the local variable {@code var} declared in the method at {@code body}, as its path, or null. */
    private static TreePath initializerOf(Element var, TreePath body, Trees trees) {
        TreePath[] found = {null};
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitVariable(VariableTree variable, Void unused) {
                if (found[0] == null && variable.getInitializer() != null && var.equals(trees.getElement(getCurrentPath()))) {
                    found[0] = new TreePath(getCurrentPath(), variable.getInitializer());
                }
                return super.visitVariable(variable, unused);
            }
        }.scan(body, null);
        return found[0];
    }

    /**
     * The call whose functional method {@code use} (an identifier naming the variable) is the receiver of
     * ({@code c.accept(in)}), as its path; null for any other use (an argument, an assignment, a return).
     */
    static TreePath functionalCall(TreePath use, Trees trees) {
        return receiverCall(use, trees, true);
    }

    /** The call {@code use} is the receiver of, as {@link #functionalCall}; of any method unless {@code abstractOnly}. */
    private static TreePath receiverCall(TreePath use, Trees trees, boolean abstractOnly) {
        TreePath select = use.getParentPath();
        while (select != null && select.getLeaf() instanceof com.sun.source.tree.ParenthesizedTree) {
            select = select.getParentPath();
        }
        if (select == null || !(select.getLeaf() instanceof MemberSelectTree)) {
            return null;
        }
        TreePath call = select.getParentPath();
        if (call == null || !(call.getLeaf() instanceof MethodInvocationTree invocation)
                || invocation.getMethodSelect() != select.getLeaf()
                || !(trees.getElement(call) instanceof ExecutableElement method)
                || abstractOnly && !method.getModifiers().contains(Modifier.ABSTRACT)) {
            return null;
        }
        return call;
    }

    /**
     * The method {@code path} is in (through the lambdas around it: a local of a lambda's body is that method's
     * code too, and a use in a nested lambda is one of the variable's), or null (an initializer).
     */
    private static TreePath enclosingBody(TreePath path) {
        for (TreePath up = path.getParentPath(); up != null; up = up.getParentPath()) {
            Tree leaf = up.getLeaf();
            if (leaf instanceof ClassTree) {
                return null;
            }
            if (leaf instanceof MethodTree) {
                return up;
            }
        }
        return null;
    }

}
