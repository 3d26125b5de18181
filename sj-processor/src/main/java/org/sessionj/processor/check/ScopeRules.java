package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Name;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * Where an {@code SJScope} may be (SJ017). Closing a scope closes every member still open, so the
 * checker must see where that happens: at the end of the try-with-resources block the scope is a
 * resource of, where every member must be complete (SJ024). Invariant: a scope is made by
 * {@code SJ.scope()} as a try-with-resources resource, and its variable (or an {@code SJScope} parameter)
 * is used only as the receiver of {@code add} or as an argument for an {@code SJScope} parameter: never
 * closed explicitly (by {@code close()} or by naming it as the resource of another try-with-resources,
 * {@code try (scope) {}}), returned, stored, captured for anything else, or declared as a field or a plain
 * local — each of those would close its members behind the checker's back
 * ({@code scope.close(); a.receive();} compiled and failed at run time, adv11 A9).
 */
final class ScopeRules {
    private final SessionApi api;
    private final Trees trees;
    /** The names of the scope variables declared so far in the class being walked (most classes: none). */
    private final Set<Name> scopeNames = new HashSet<>();

    ScopeRules(SessionApi api, Trees trees) {
        this.api = api;
        this.trees = trees;
    }

    /**
     * A variable declaration: a scope only as a try-with-resources resource. {@code element} is the
     * declaration's element, which the class walk has asked javac for already.
     */
    void variable(TreePath path, VariableTree tree, Element element, Reporter reporter) {
        if (!(element instanceof VariableElement variable) || !api.isScope(variable.asType())) {
            return;
        }
        scopeNames.add(tree.getName());
        if (variable.getKind() == ElementKind.PARAMETER) {
            return; // given a scope by a caller, which names it only as such an argument (see identifier)
        }
        if (!(path.getParentPath().getLeaf() instanceof TryTree resources && resources.getResources().contains(tree))) {
            reporter.error(tree, Diagnostic.MISPLACED_CONSTRUCT, "the scope '" + tree.getName() + "' must be a "
                    + "try-with-resources resource, try (SJScope " + tree.getName() + " = SJ.scope()) {...}: closing"
                    + " a scope closes its members, which the checker sees only at the end of that block");
        }
    }

    /** {@code SJ.scope()}: only as the initializer of a try-with-resources resource. */
    void invocation(TreePath path, MethodInvocationTree call, Reporter reporter) {
        // The called method's simple name is the name its select ends with: a call not spelled scope(...)
        // is not SJ.scope(), known without asking javac for the element (the class walk meets every call).
        ExpressionTree select = call.getMethodSelect();
        Name spelled = select instanceof MemberSelectTree member ? member.getIdentifier()
                : select instanceof IdentifierTree identifier ? identifier.getName() : null;
        if (spelled != null && !spelled.contentEquals("scope")) {
            return;
        }
        if (!(trees.getElement(path) instanceof ExecutableElement method) || !method.getSimpleName().contentEquals("scope")
                || !(method.getEnclosingElement() instanceof TypeElement owner)
                || !owner.getQualifiedName().contentEquals("org.sessionj.api.SJ")) {
            return;
        }
        TreePath parent = path.getParentPath();
        while (parent.getLeaf() instanceof ParenthesizedTree) {
            parent = parent.getParentPath();
        }
        if (!(parent.getLeaf() instanceof VariableTree)) {
            reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, "SJ.scope() must initialise a try-with-resources "
                    + "resource, try (SJScope scope = SJ.scope()) {...}: closing a scope closes its members, which the"
                    + " checker sees only at the end of that block");
        }
    }

    /** Whether {@code argument} of {@code call} is given to a parameter of type {@code SJScope}. */
    private boolean scopeParameter(TreePath callPath, MethodInvocationTree call, Tree argument) {
        int index = call.getArguments().indexOf(argument);
        return index >= 0 && trees.getElement(callPath) instanceof ExecutableElement method
                && index < method.getParameters().size() && !(method.isVarArgs() && index >= method.getParameters().size() - 1)
                && api.isScope(method.getParameters().get(index).asType());
    }

    /**
     * A scope variable named: only as the receiver of {@code add}, or as an argument for an {@code SJScope}
     * parameter (a method adding to the caller's scope; what it adds, the caller's scope closes).
     */
    void identifier(TreePath path, IdentifierTree tree, Reporter reporter) {
        if (!scopeNames.contains(tree.getName())
                || !(trees.getElement(path) instanceof VariableElement variable) || !api.isScope(variable.asType())) {
            return;
        }
        Tree parent = path.getParentPath().getLeaf();
        if (parent instanceof MemberSelectTree select && select.getIdentifier().contentEquals("add")
                && path.getParentPath().getParentPath().getLeaf() instanceof MethodInvocationTree) {
            return;
        }
        if (parent instanceof TryTree) {
            // try (scope) {...} names a scope that exists already: it closes it (and its members) a second time,
            // at the end of that block (adv12 A2); the one try-with-resources of a scope is the one declaring it.
            reporter.error(tree, Diagnostic.MISPLACED_CONSTRUCT, "the scope '" + tree.getName() + "' is closed at the"
                    + " end of this try-with-resources block, which closes its members where the checker does not see"
                    + " it: a scope is closed only by the try-with-resources block that declares it");
            return;
        }
        if (parent instanceof MethodInvocationTree call && scopeParameter(path.getParentPath(), call, tree)) {
            return; // handed to an SJScope parameter, whose method is held to this rule in turn
        }
        reporter.error(tree, Diagnostic.MISPLACED_CONSTRUCT, "the scope '" + tree.getName() + "' is used only as "
                + tree.getName() + ".add(...): closing it, handing it on, storing or capturing it would close its "
                + "members where the checker does not see it (the try-with-resources block closes it)");
    }
}
