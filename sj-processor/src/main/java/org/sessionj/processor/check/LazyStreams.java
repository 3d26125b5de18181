package org.sessionj.processor.check;

import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * adv20 A4: a lambda or method reference given to a lazy stream operation ({@code map}, {@code filter},
 * {@code peek}, {@code flatMap}, {@code sorted}, {@code Stream.generate}… — a JDK method of a stream type that
 * returns a stream) does not run in that call: the operation records it, and it runs in the terminal operation
 * that consumes the stream ({@code toList}, {@code forEach}, {@code collect}…), which may be another statement.
 * Where it runs: the terminal operation at the end of the chain when the chain ends in one in the same
 * expression (the call it is given to stands there: nothing changes); the one terminal operation of a local
 * variable initialised with the chain and used once, as the receiver of a chain that ends in a terminal operation
 * ({@code Stream<Integer> booked = inputs.stream().map(in -> book(in)); try { booked.toList(); } catch …});
 * else — the stream returned, stored, given away, turned into an {@code iterator()} or {@code spliterator()} (lazy
 * too), or consumed at several places — not known here, and taken as consumed where a catch takes every exception
 * and goes on: an exception that may leave the function with a live plain local session is SJ024 there
 * ({@link UncheckedExits}).
 */
final class LazyStreams {
    private LazyStreams() {
    }

    /**
     * Where a function given to a lazy stream operation runs: {@code op}, the operation's call; {@code consumer},
     * the terminal operation that runs it, or null when that is not known here (see the class comment).
     */
    record Lazy(TreePath op, TreePath consumer) {
    }

    /**
     * For the lambda or method reference at {@code function}: where it runs, when it is given to a lazy stream
     * operation whose stream is not consumed in the same expression; else null (it runs where it stands).
     */
    static Lazy of(TreePath function, MethodChecker flow) {
        Tree child = function.getLeaf();
        TreePath up = function.getParentPath();
        while (up != null && (up.getLeaf() instanceof ParenthesizedTree || up.getLeaf() instanceof TypeCastTree)) {
            child = up.getLeaf();
            up = up.getParentPath();
        }
        if (up == null || !(up.getLeaf() instanceof MethodInvocationTree invocation)
                || !invocation.getArguments().contains(child) || !intermediate(up, flow)) {
            return null;
        }
        TreePath end = chainEnd(up, flow);
        if (end.getLeaf() instanceof MethodInvocationTree && !intermediate(end, flow)) {
            return lazyTerminal(end, flow) ? new Lazy(up, null) : null; // consumed here: it runs where it stands
        }
        return new Lazy(up, heldConsumer(end, flow));
    }

    /**
     * The last call of the chain {@code call} begins ({@code call.a().b()}: the call of {@code b}), through the
     * intermediate operations on it; {@code call} itself when nothing is called on it.
     */
    private static TreePath chainEnd(TreePath call, MethodChecker flow) {
        TreePath last = call;
        while (intermediate(last, flow)) {
            TreePath select = last.getParentPath();
            while (select != null && select.getLeaf() instanceof ParenthesizedTree) {
                select = select.getParentPath();
            }
            if (select == null || !(select.getLeaf() instanceof MemberSelectTree)
                    || !(select.getParentPath().getLeaf() instanceof MethodInvocationTree next)
                    || next.getMethodSelect() != select.getLeaf()) {
                return last;
            }
            last = select.getParentPath();
        }
        return last;
    }

    /**
     * The one terminal operation that consumes the stream {@code end} (the last intermediate call of a chain)
     * evaluates to, when it initialises a local variable used only once, as the receiver of a chain that ends in
     * a terminal operation; else null.
     */
    private static TreePath heldConsumer(TreePath end, MethodChecker flow) {
        TreePath declaration = end.getParentPath();
        Tree value = end.getLeaf();
        while (declaration != null && declaration.getLeaf() instanceof ParenthesizedTree) {
            value = declaration.getLeaf();
            declaration = declaration.getParentPath();
        }
        if (declaration == null || !(declaration.getLeaf() instanceof VariableTree variable)
                || variable.getInitializer() != value || !(flow.trees.getElement(declaration) instanceof Element var)
                || var.getKind() != ElementKind.LOCAL_VARIABLE) {
            return null;
        }
        TreePath body = declaration;
        while (body != null && !(body.getLeaf() instanceof MethodTree)) {
            body = body.getParentPath();
        }
        if (body == null) {
            return null;
        }
        List<TreePath> uses = new ArrayList<>();
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree identifier, Void unused) {
                if (var.equals(flow.trees.getElement(getCurrentPath()))) {
                    uses.add(getCurrentPath());
                }
                return super.visitIdentifier(identifier, unused);
            }
        }.scan(body, null);
        if (uses.size() != 1) {
            return null; // never consumed here, or at several places (a stream is consumed once)
        }
        TreePath select = uses.get(0).getParentPath();
        if (select == null || !(select.getLeaf() instanceof MemberSelectTree)
                || !(select.getParentPath().getLeaf() instanceof MethodInvocationTree first)
                || first.getMethodSelect() != select.getLeaf()) {
            return null; // given away, returned, assigned
        }
        TreePath last = chainEnd(select.getParentPath(), flow);
        return last.getLeaf() instanceof MethodInvocationTree && !intermediate(last, flow) && !lazyTerminal(last, flow)
                && streamMethod(last, flow) ? last : null;
    }

    /** Whether {@code call} is of a JDK stream method that returns a stream (an intermediate operation, or a factory). */
    private static boolean intermediate(TreePath call, MethodChecker flow) {
        if (!streamMethod(call, flow)) {
            return false;
        }
        ExecutableElement method = (ExecutableElement) flow.trees.getElement(call);
        return isStream(method.getReturnType(), flow);
    }

    /** Whether {@code call} is of a method of a JDK stream type ({@code BaseStream} and its subtypes). */
    private static boolean streamMethod(TreePath call, MethodChecker flow) {
        return call.getLeaf() instanceof MethodInvocationTree
                && flow.trees.getElement(call) instanceof ExecutableElement method
                && method.getEnclosingElement() instanceof TypeElement owner && ThrowSites.inJdk(method, flow)
                && isStream(owner.asType(), flow);
    }

    /** {@code iterator()} and {@code spliterator()} end a chain without running it: their elements are pulled later. */
    private static boolean lazyTerminal(TreePath call, MethodChecker flow) {
        if (!streamMethod(call, flow)) {
            return false;
        }
        String name = flow.trees.getElement(call).getSimpleName().toString();
        return name.equals("iterator") || name.equals("spliterator");
    }

    private static boolean isStream(TypeMirror type, MethodChecker flow) {
        TypeElement base = flow.elements.getTypeElement("java.util.stream.BaseStream");
        return base != null && type != null && type.getKind() == javax.lang.model.type.TypeKind.DECLARED
                && flow.types.isSubtype(flow.types.erasure(type), flow.types.erasure(base.asType()));
    }
}
