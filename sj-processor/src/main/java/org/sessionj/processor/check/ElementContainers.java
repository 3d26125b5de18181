package org.sessionj.processor.check;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import java.util.List;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * The containers a JDK call on a {@code @NoAlias} value (or a view of it) stores the value's elements into
 * (adv18 A1, A2): {@code x.entrySet().toArray(keep)} fills the program's array {@code keep} with the map's own
 * nodes, {@code stream.collect(Collectors.toCollection(() -> keep))} its list. Invariant (docs/noalias.md,
 * "Results that may be the value"): <em>a JDK call stores an element that may be a view of the value only into a
 * container the call makes</em> — a new array ({@code toArray(new T[0])}, {@code toArray(T[]::new)}), a
 * collection or map a constructor supplies ({@code ArrayList::new}, {@code () -> new HashMap<>()}) or one of
 * {@code Collectors}' own — and that container is the call's result, followed as a copy of the value's elements
 * ({@link JdkCopies#copiedSource}, SJ048). Storing them into a container the program holds moves the value.
 */
final class ElementContainers {
    private final MethodChecker flow;
    private final ElementConsumers consumers;

    ElementContainers(MethodChecker flow, ElementConsumers consumers) {
        this.flow = flow;
        this.consumers = consumers;
    }

    /**
     * How {@code call} (at {@code callPath}), which reads a value of type {@code valueType} whose elements may be
     * views of it, stores them into a container the program holds ("into the array 'keep' (…)"), or null.
     */
    String intoContainer(MethodInvocationTree call, TreePath callPath, TypeMirror valueType) {
        if (!flow.viewResults.elementsMayView(valueType)
                || !(flow.trees.getElement(callPath) instanceof ExecutableElement method)
                || !(method.getEnclosingElement() instanceof TypeElement owner) || call.getArguments().isEmpty()) {
            return null;
        }
        String name = method.getSimpleName().toString();
        ExpressionTree first = call.getArguments().get(0);
        ExpressionTree stripped = FlowScanner.strip(first);
        if ((name.equals("toArray") || name.equals("copyInto")) && call.getArguments().size() == 1
                && flow.viewResults.isA(owner.asType(), "java.util.Collection")) {
            TypeMirror argument = flow.trees.getTypeMirror(new TreePath(callPath, first));
            if (argument != null && argument.getKind() == TypeKind.ARRAY) {
                return stripped instanceof NewArrayTree ? null : "into the array '" + first + "' ('" + name
                        + "' stores the elements into the array it is given when they fit)";
            }
            return makesNew(stripped) ? null : "into the array the generator '" + first + "' of 'toArray' returns";
        }
        if (!name.equals("collect") || !flow.viewResults.isA(owner.asType(), "java.util.stream.Stream")) {
            return null;
        }
        if (call.getArguments().size() == 3) {
            return makesNew(stripped) ? null : suppliedContainer(first, "collect");
        }
        return collectorKeeps(first, new TreePath(callPath, first), valueType);
    }

    /**
     * Whether {@code call} is a three-argument {@code collect} whose supplier makes a new container: its
     * accumulator and combiner may put the elements into that container, which is the call's result.
     */
    boolean collectsIntoNewContainer(MethodInvocationTree call, TreePath callPath) {
        return call.getArguments().size() == 3 && flow.trees.getElement(callPath) instanceof ExecutableElement method
                && method.getSimpleName().contentEquals("collect")
                && method.getEnclosingElement() instanceof TypeElement owner
                && flow.viewResults.isA(owner.asType(), "java.util.stream.Stream")
                && makesNew(FlowScanner.strip(call.getArguments().get(0)));
    }

    /**
     * How the collector {@code collector} (at {@code path}) keeps the elements it is given, or null: one of
     * {@code Collectors}' factories (or {@code Collector.of}) whose suppliers make new containers, whose
     * functional arguments keep no element but in what they return (which goes into the new container), and
     * whose downstream collectors keep none either; any other collector is code the checker does not read.
     */
    private String collectorKeeps(ExpressionTree collector, TreePath path, TypeMirror valueType) {
        ExpressionTree stripped = FlowScanner.strip(collector);
        TreePath strippedPath = new TreePath(path.getParentPath(), stripped);
        if (!(stripped instanceof MethodInvocationTree factory)
                || !(flow.trees.getElement(strippedPath) instanceof ExecutableElement made)
                || !(made.getEnclosingElement() instanceof TypeElement owner)
                || !COLLECTOR_FACTORIES.contains(owner.getQualifiedName().toString())) {
            return "into the collector '" + collector + "' (code the checker does not read: give one of "
                    + "java.util.stream.Collectors' collectors)";
        }
        String name = made.getSimpleName().toString();
        List<? extends ExpressionTree> arguments = factory.getArguments();
        for (int i = 0; i < arguments.size(); i++) {
            ExpressionTree argument = arguments.get(i);
            TreePath argumentPath = new TreePath(strippedPath, argument);
            TypeMirror type = flow.trees.getTypeMirror(argumentPath);
            String kept;
            if (type != null && flow.viewResults.isA(type, "java.util.stream.Collector")) {
                kept = collectorKeeps(argument, argumentPath, valueType);
            } else if (type != null && flow.viewResults.isA(type, "java.util.function.Supplier")) {
                kept = makesNew(FlowScanner.strip(argument)) ? null : suppliedContainer(argument, name);
            } else {
                // Collector.of(supplier, accumulator, …): the accumulator's first parameter is the new container
                boolean accumulator = name.equals("of") && i == 1;
                kept = consumers.functionalKeeps(argument, argumentPath, valueType, true, accumulator);
            }
            if (kept != null) {
                return kept;
            }
        }
        return null;
    }

    /** "into the collection (map) the supplier 'supplier' of 'name' returns". */
    private String suppliedContainer(ExpressionTree supplier, String name) {
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(supplier));
        boolean map = type instanceof DeclaredType declared && declared.getTypeArguments().size() == 1
                && flow.viewResults.isA(declared.getTypeArguments().get(0), "java.util.Map");
        return "into the " + (map ? "map" : "collection") + " the supplier '" + supplier + "' of '" + name + "' returns";
    }

    /** The classes whose static factories make the JDK's own collectors. */
    private static final java.util.Set<String> COLLECTOR_FACTORIES = java.util.Set.of(
            "java.util.stream.Collectors", "java.util.stream.Collector");

    /**
     * Whether the factory {@code factory} (a supplier or an array generator) makes a new object each time: a
     * constructor reference ({@code ArrayList::new}, {@code Integer[]::new}) or a lambda whose value is a
     * {@code new} expression ({@code () -> new HashMap<>()}, {@code n -> new Integer[n]}), not one that returns
     * an object the program holds ({@code () -> keep}, adv18 A1; {@code n -> shared}, adv17 A11).
     */
    static boolean makesNew(ExpressionTree factory) {
        if (factory instanceof MemberReferenceTree reference) {
            return reference.getMode() == MemberReferenceTree.ReferenceMode.NEW;
        }
        if (!(factory instanceof LambdaExpressionTree lambda)) {
            return false;
        }
        Tree body = lambda.getBody();
        if (body instanceof BlockTree block && block.getStatements().size() == 1
                && block.getStatements().get(0) instanceof ReturnTree returned) {
            body = returned.getExpression();
        }
        return body instanceof ExpressionTree value && (FlowScanner.strip(value) instanceof NewArrayTree
                || FlowScanner.strip(value) instanceof NewClassTree made && made.getClassBody() == null);
    }
}
