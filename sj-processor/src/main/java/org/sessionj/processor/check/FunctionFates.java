package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * adv21 B1–B3, B10 (issue 12): one rule for a <em>leaking function</em> — a lambda, a method reference or an object
 * of a class of the program that implements a JDK functional interface, whose code may let an unchecked exception
 * out while a plain local session is live and incomplete ({@link UncheckedExits}): it is <em>followed</em> to every
 * place it runs, or <em>rejected</em> (SJ024) where it escapes. Where the exception comes out decides whether a catch
 * takes it and the program goes on with the session abandoned, so the checker must know where the function runs.
 * The fate of a function, by where it stands (through parentheses and casts):
 * <ul>
 * <li>the initializer of a local variable used only by calls of its functional method ({@link HeldFunctions}, adv19
 * c8): it runs at those calls;</li>
 * <li>an argument of a JDK call that runs it on another thread ({@link FunctionRunners}, adv20 A1) or of a lazy stream
 * operation ({@link LazyStreams}, adv20 A4): as those say;</li>
 * <li>an argument of a JDK call that runs it where it stands (a method of {@code Iterable}, {@code Iterator},
 * {@code Spliterator}, a {@code Collection} or {@code Map}, {@code Optional}, the streams and {@code Collectors},
 * {@code Arrays}, {@code Collections} or {@code Objects} whose parameter is declared with a functional interface
 * type: {@code forEach}, {@code removeIf}, {@code computeIfAbsent}, {@code ifPresent}…) or of the session API: it
 * runs in that call, inside the try statements around it;</li>
 * <li>an argument of a method of the program whose parameter is used only as the receiver of calls of its
 * functional method ({@code static void runSafely(Runnable task) { try { task.run(); } catch …}}): it runs at those
 * calls, inside their try statements (the exception then leaves that method to its callers);</li>
 * <li>the receiver of a call of its own method ({@code ((Runnable) () -> …).run()}): it runs there;</li>
 * <li>anything else <em>escapes</em> where the checker does not follow it — given to another JDK method
 * ({@code List.of}, {@code map.put}, {@code new FutureTask<>(…)}), to a method known only from a class file, to a
 * method of the program that does anything else with its parameter (stores it, passes it on), stored in a field or
 * an array, returned, chosen by a conditional, assigned, held in a local that is used otherwise: taken as run under a
 * catch that takes every exception and goes on, so a leaking function is SJ024 there. The fix is always local: make
 * the function's body exception-safe (the session in try-with-resources, or the catch inside the function).</li>
 * </ul>
 */
final class FunctionFates {
    private FunctionFates() {
    }

    /**
     * Where a function runs: {@code key}, a key of {@link UncheckedExits} (a held lambda's tree, or a followed
     * parameter of a method of the program) whose runs are recorded where they are; else {@code handlers}, the
     * handlers it meets (a runner, a lazy stream's consumer, an escape); both null: it runs where it stands.
     */
    record Fate(List<UncheckedExits.Handlers> handlers, Object key) {
        /** It runs where it stands. */
        static final Fate STANDS = new Fate(null, null);
    }

    /** The fate of the lambda or method reference at {@code function} (see the class comment). */
    static Fate of(TreePath function, CatchClauses handlers, MethodChecker flow) {
        Tree leaf = function.getLeaf();
        if (HeldFunctions.runs(function, flow.trees) != null) {
            // adv19 c8: a held lambda (or object, adv21 B2) is keyed by its tree; a held method reference is a call of
            // its method where it stands and at each run
            return leaf instanceof MemberReferenceTree ? Fate.STANDS : new Fate(null, leaf);
        }
        List<UncheckedExits.Handlers> elsewhere = UncheckedExits.functionHandlers(function, handlers);
        if (elsewhere != null) {
            return new Fate(elsewhere, null); // adv20 A1 (runners), A4 (lazy streams)
        }
        Tree child = leaf;
        TreePath up = function.getParentPath();
        while (up != null && (up.getLeaf() instanceof ParenthesizedTree || up.getLeaf() instanceof TypeCastTree)) {
            child = up.getLeaf();
            up = up.getParentPath();
        }
        if (up == null) {
            return Fate.STANDS;
        }
        Tree parent = up.getLeaf();
        List<? extends Tree> arguments = parent instanceof MethodInvocationTree invocation ? invocation.getArguments()
                : parent instanceof NewClassTree creation ? creation.getArguments() : List.of();
        int index = indexOf(arguments, child);
        if (index >= 0) {
            if (!(flow.trees.getElement(up) instanceof ExecutableElement method)) {
                return escapes(handlers, "given to a call on line " + flow.line(parent), flow);
            }
            String name = FunctionRunners.name(parent, flow);
            if (ThrowSites.inJdk(method, flow)) {
                return runsInPlace(method, index, flow) ? Fate.STANDS
                        : escapes(handlers, "given to " + name + " on line " + flow.line(parent)
                                + ", which may keep it", flow);
            }
            if (sessionApi(method, flow)) {
                return Fate.STANDS;
            }
            VariableElement parameter = followedParameter(method, index, flow);
            if (parameter != null) {
                return new Fate(null, parameter);
            }
            return escapes(handlers, "given to " + name + " on line " + flow.line(parent)
                    + (flow.trees.getTree(method) == null ? ", known only from a class file"
                            : ", which does more with it than call it"), flow);
        }
        if (parent instanceof com.sun.source.tree.ExpressionStatementTree) {
            return Fate.STANDS; // new Task(in); — made and dropped: it never runs
        }
        if (parent instanceof MemberSelectTree select && select.getExpression() == child
                && up.getParentPath() != null && up.getParentPath().getLeaf() instanceof MethodInvocationTree call
                && call.getMethodSelect() == select) {
            return Fate.STANDS; // ((Runnable) () -> …).run(): it runs in that call
        }
        return escapes(handlers, where(parent, child, flow), flow);
    }

    /** A function that escapes (see the class comment): it meets a handler that takes every exception and goes on. */
    private static Fate escapes(CatchClauses handlers, String where, MethodChecker flow) {
        return new Fate(List.of(new UncheckedExits.Handlers(List.of(handlers.escape(where)), null)), null);
    }

    /** How a message says where a function that is not an argument escapes to. */
    private static String where(Tree parent, Tree child, MethodChecker flow) {
        long line = flow.line(parent);
        if (parent instanceof VariableTree variable) {
            return "held in '" + variable.getName() + "' on line " + line
                    + ", which is used other than by calls of its method, or is not a local variable";
        }
        if (parent instanceof AssignmentTree) {
            return "assigned on line " + line;
        }
        if (parent instanceof ReturnTree || parent instanceof LambdaExpressionTree) {
            return "returned on line " + line;
        }
        if (parent instanceof ConditionalExpressionTree) {
            return "chosen by a conditional on line " + line;
        }
        if (parent instanceof NewArrayTree) {
            return "stored in an array on line " + line;
        }
        return "on line " + line;
    }

    private static int indexOf(List<? extends Tree> arguments, Tree child) {
        for (int i = 0; i < arguments.size(); i++) {
            if (arguments.get(i) == child) {
                return i;
            }
        }
        return -1;
    }

    /** The JDK types whose methods run a function given to them where they stand (see the class comment). */
    private static final List<String> IN_PLACE = List.of("java.lang.Iterable", "java.util.Iterator",
            "java.util.Spliterator", "java.util.Optional", "java.util.OptionalInt", "java.util.OptionalLong",
            "java.util.OptionalDouble", "java.util.Arrays", "java.util.Collections", "java.util.Objects");

    /**
     * Whether the JDK method {@code method} runs a function given as its argument {@code index} where it stands: a
     * method of one of the types of {@link #IN_PLACE}, of a {@code Collection} or a {@code Map}, or of a type of
     * {@code java.util.stream}, whose parameter there is declared with a functional interface type (not a type
     * variable: {@code List.of(E)}, {@code map.put(K, V)} keep what they are given).
     */
    static boolean runsInPlace(ExecutableElement method, int index, MethodChecker flow) {
        if (method.getKind() == ElementKind.CONSTRUCTOR || !(method.getEnclosingElement() instanceof TypeElement owner)) {
            return false;
        }
        List<? extends VariableElement> parameters = method.getParameters();
        if (parameters.isEmpty()) {
            return false;
        }
        TypeMirror declared = parameters.get(Math.min(index, parameters.size() - 1)).asType();
        if (method.isVarArgs() && index >= parameters.size() - 1 && declared.getKind() == TypeKind.ARRAY) {
            declared = ((javax.lang.model.type.ArrayType) declared).getComponentType();
        }
        if (!(declared instanceof DeclaredType type) || !(type.asElement() instanceof TypeElement parameterType)
                || !flow.elements.isFunctionalInterface(parameterType)) {
            return false;
        }
        String name = owner.getQualifiedName().toString();
        javax.lang.model.element.PackageElement pkg = flow.elements.getPackageOf(owner);
        if (pkg != null && pkg.getQualifiedName().contentEquals("java.util.stream")) {
            return true; // a stream's terminal operation, a Collector (run by the collect it is given to)
        }
        for (String inPlace : IN_PLACE) {
            if (name.equals(inPlace) || name.startsWith(inPlace + ".")) {
                return true;
            }
        }
        return subtype(owner, "java.util.Collection", flow) || subtype(owner, "java.util.Map", flow);
    }

    /**
     * The parameter of {@code method} (a method of the program) that a function given as its argument {@code index}
     * is bound to, when the method's body uses it only as the receiver of calls of its functional method (the
     * function runs at those calls: they are recorded as its runs, {@link UncheckedExits#runValue}); else null.
     */
    static VariableElement followedParameter(ExecutableElement method, int index, MethodChecker flow) {
        List<? extends VariableElement> parameters = method.getParameters();
        if (index >= parameters.size() || method.isVarArgs() && index >= parameters.size() - 1) {
            return null;
        }
        VariableElement parameter = parameters.get(index);
        return flow.uncheckedExits.onlyCalled(method, parameter) ? parameter : null;
    }

    /** The session API's own code ({@code org.sessionj.api}, {@code org.sessionj.runtime}). */
    private static boolean sessionApi(ExecutableElement method, MethodChecker flow) {
        Element pkg = flow.elements.getPackageOf(method);
        String name = pkg == null ? "" : ((javax.lang.model.element.PackageElement) pkg).getQualifiedName().toString();
        return name.equals("org.sessionj.api") || name.startsWith("org.sessionj.api.")
                || name.equals("org.sessionj.runtime") || name.startsWith("org.sessionj.runtime.");
    }

    /** Whether {@code type} is (a subtype of) the JDK type {@code name}. */
    private static boolean subtype(TypeElement type, String name, MethodChecker flow) {
        TypeElement base = flow.elements.getTypeElement(name);
        return base != null && flow.types.isSubtype(flow.types.erasure(type.asType()), flow.types.erasure(base.asType()));
    }
}
