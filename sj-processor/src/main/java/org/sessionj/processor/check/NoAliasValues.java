package org.sessionj.processor.check;

import com.sun.source.tree.BindingPatternTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.PatternCaseLabelTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.VarState;

/**
 * Which values a {@code @NoAlias} variable, parameter or result may be given: only a unique one (a new
 * object or array, null, a received message, a {@code @NoAlias} method result or variable), and the
 * first state of each kind of {@code @NoAlias} variable (a local, a pattern variable, a catch parameter,
 * an enhanced-for variable). See {@code docs/noalias.md}.
 */
final class NoAliasValues {
    private final MethodChecker flow;

    NoAliasValues(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * Whether {@code expression} yields a value nobody else references: a new object or array, null, a
     * received message, a {@code @NoAlias} method result, or a {@code @NoAlias} variable (moved by the use).
     */
    boolean unique(ExpressionTree expression) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        // instanceof, not a pattern switch: javac loads the processor afresh for every compilation, and
        // each switch's bootstrap would be linked cold every time (NoPatternSwitchTest)
        if (stripped instanceof NewClassTree creation) {
            return creation.getClassBody() == null && !flow.views.holdsViews(creation);
        } else if (stripped instanceof NewArrayTree) {
            return true;
        } else if (stripped instanceof LiteralTree literal) {
            return literal.getValue() == null;
        } else if (stripped instanceof TypeCastTree cast) {
            return unique(cast.getExpression());
        } else if (stripped instanceof ConditionalExpressionTree conditional) {
            return unique(conditional.getTrueExpression()) && unique(conditional.getFalseExpression());
        } else if (stripped instanceof IdentifierTree identifier) {
            VarInfo info = flow.infos.get(flow.elementOf(identifier));
            return info != null && info.kind().owned();
        } else if (stripped instanceof MemberSelectTree select && NoAliasRules.isThis(select.getExpression())) {
            VarInfo info = flow.infos.get(flow.elementOf(select));
            return info != null && info.kind().owned();
        } else if (stripped instanceof MethodInvocationTree call) {
            if (isArrayClone(call) || newArray(call)) {
                return !flow.views.holdsViews(call); // a new array, shallowly copied: not of an owned array's rows
            }
            if (flow.moveContexts.returnsArgument(call)) {
                Element method = flow.elementOf(call);
                return method.getSimpleName().contentEquals("requireNonNull") ? unique(call.getArguments().get(0))
                        : method.getSimpleName().contentEquals("requireNonNullElse")
                                && unique(call.getArguments().get(0)) && unique(call.getArguments().get(1));
            }
            if (flow.jdkCopies.copiedSource(call) != null && newCollection(call)) {
                // a stream's toList/toArray/collect into a new collection, List.copyOf, a collection's toArray
                // (adv16 A12): a new value, unless its elements may be views of an owned one (A3)
                return !flow.views.holdsViews(call);
            }
            Element method = flow.elementOf(call);
            if (method != null) {
                flow.facts.read(method); // whether its result is @NoAlias: its class's fingerprint holds it
            }
            return method != null && (NoAliasRules.isNoAlias(method) || flow.api.isSocketClass(method.getEnclosingElement())
                    && method.getSimpleName().toString().startsWith("receive"));
        }
        return false;
    }

    /**
     * Whether the JDK copy {@code call} ({@link JdkCopies#copiedSource}) returns a collection or array made
     * for it: every one but a stream's {@code collect}, whose collector may return any collection; that one only
     * with the JDK's {@code Collectors.toList()}, {@code toSet()}, their unmodifiable twins, or
     * {@code toCollection} of a constructor ({@code ArrayList::new}, {@code () -> new ArrayList<>()}).
     */
    private boolean newCollection(MethodInvocationTree call) {
        Element method = flow.elementOf(call);
        if (method.getSimpleName().contentEquals("toArray")) {
            // A collection's toArray is the collection's own code, maybe the program's, which may hand out its
            // array (NoAliasJdkResultsTest.aListsArrayIsNotKnownToBeNew); a stream's is the JDK pipeline's.
            return method.getEnclosingElement() instanceof TypeElement owner
                    && owner.getQualifiedName().toString().startsWith("java.util.stream.")
                    && (call.getArguments().isEmpty()
                            || ElementContainers.makesNew(FlowScanner.strip(call.getArguments().get(0))));
        }
        if (!method.getSimpleName().contentEquals("collect")) {
            return true;
        }
        if (call.getArguments().size() != 1
                || !(FlowScanner.strip(call.getArguments().get(0)) instanceof MethodInvocationTree collector)
                || !(flow.elementOf(collector) instanceof javax.lang.model.element.ExecutableElement factory)
                || !(factory.getEnclosingElement() instanceof TypeElement owner)
                || !owner.getQualifiedName().contentEquals("java.util.stream.Collectors")) {
            return false;
        }
        String name = factory.getSimpleName().toString();
        if (name.equals("toList") || name.equals("toSet") || name.equals("toUnmodifiableList")
                || name.equals("toUnmodifiableSet")) {
            return true;
        }
        if (!name.equals("toCollection") || collector.getArguments().size() != 1) {
            return false;
        }
        return ElementContainers.makesNew(FlowScanner.strip(collector.getArguments().get(0)));
    }

    /** Final JDK classes whose instances never change: sharing one is harmless (SJ042). */
    private static final java.util.Set<String> IMMUTABLE = java.util.Set.of("java.lang.String", "java.lang.Integer",
            "java.lang.Long", "java.lang.Short", "java.lang.Byte", "java.lang.Character", "java.lang.Boolean",
            "java.lang.Float", "java.lang.Double");

    /**
     * Whether the static type of {@code expression} is a primitive, a {@code String} or a box: its value
     * cannot be changed through another reference, so handing it over by {@code pass} needs no ownership
     * ({@code s.pass("literal")}). A {@code @NoAlias} variable passed is still moved.
     */
    boolean immutable(ExpressionTree expression) {
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(expression));
        if (type == null) {
            return false;
        }
        if (type.getKind().isPrimitive()) {
            return true;
        }
        return type instanceof javax.lang.model.type.DeclaredType declared
                && declared.asElement() instanceof TypeElement element
                && IMMUTABLE.contains(element.getQualifiedName().toString());
    }

    /**
     * JDK methods of final classes specified to return a newly allocated array: {@code Arrays.copyOf},
     * {@code Arrays.copyOfRange} (shallow copies, like {@code clone()}), {@code String.toCharArray},
     * {@code String.getBytes}.
     */
    private static final java.util.Set<String> NEW_ARRAY = java.util.Set.of("java.util.Arrays.copyOf",
            "java.util.Arrays.copyOfRange", "java.lang.String.toCharArray", "java.lang.String.getBytes");

    /** Whether {@code call} is one of {@link #NEW_ARRAY}. */
    private boolean newArray(MethodInvocationTree call) {
        return flow.elementOf(call) instanceof ExecutableElement method && returnsNewArray(method);
    }

    /** Whether {@code method} is one of {@link #NEW_ARRAY}: each call returns a new array. */
    static boolean returnsNewArray(ExecutableElement method) {
        return method.getEnclosingElement() instanceof TypeElement owner
                && NEW_ARRAY.contains(owner.getQualifiedName() + "." + method.getSimpleName());
    }

    /** {@code a.clone()} of an array: always a new array. */
    private boolean isArrayClone(MethodInvocationTree call) {
        return call.getArguments().isEmpty() && call.getMethodSelect() instanceof MemberSelectTree select
                && select.getIdentifier().contentEquals("clone")
                && flow.trees.getTypeMirror(flow.pathOf(select.getExpression())) instanceof TypeMirror type
                && type.getKind() == javax.lang.model.type.TypeKind.ARRAY;
    }

    /**
     * A {@code @NoAlias} enhanced-for variable: each element it is given stays in the array or
     * collection, so it is never the only reference (SJ040).
     */
    VarState loopVariable(Element var, EnhancedForLoopTree loop) {
        if (flow.state != null) {
            flow.reporter.error(loop.getVariable(), Diagnostic.NOT_UNIQUE, var.getSimpleName(),
                    "an element of " + loop.getExpression() + ", which keeps it");
        }
        return VarState.FAILED;
    }

    /**
     * The first state of a {@code @NoAlias} pattern variable or catch parameter, or null when {@code tree}
     * is neither. A pattern variable owns its value only when a type pattern binds the tested value itself
     * and that value is unique (a {@code @NoAlias} variable, which the test moves, or a new object); a
     * component bound inside a record pattern stays in the record, and a caught exception may still be
     * referenced by whoever threw it (a field, a constant, a caller that keeps it): SJ040.
     */
    VarState bound(VariableTree tree, Element var) {
        TreePath path = flow.getCurrentPath();
        Tree parent = path.getParentPath().getLeaf();
        String shared;
        if (parent instanceof BindingPatternTree) {
            TreePath holder = path.getParentPath().getParentPath();
            // instanceof, not a pattern switch: its bootstrap would be linked cold in every compilation
            Tree held = holder.getLeaf();
            ExpressionTree matched = held instanceof InstanceOfTree test ? test.getExpression()
                    : held instanceof PatternCaseLabelTree ? selectorOf(holder)
                    : null; // a component of a record pattern
            if (matched != null && unique(matched)) {
                return VarState.OWNED; // the tested value moved in (MoveContexts: "into a pattern variable")
            }
            shared = matched != null ? FlowScanner.strip(matched).toString()
                    : "a component of the record it is matched in, which keeps it";
        } else if (SocketExpressionRules.catchParameter(parent, tree)) {
            shared = "a caught exception, which whoever threw it may still reference";
        } else {
            return null;
        }
        if (flow.state != null) {
            flow.reporter.error(tree, Diagnostic.NOT_UNIQUE, var.getSimpleName(), shared);
        }
        return VarState.FAILED;
    }

    /** The selector of the switch whose case label is at {@code label}. */
    private static ExpressionTree selectorOf(TreePath label) {
        for (TreePath p = label.getParentPath(); p != null; p = p.getParentPath()) {
            if (p.getLeaf() instanceof SwitchTree statement) {
                return statement.getExpression();
            }
            if (p.getLeaf() instanceof SwitchExpressionTree expression) {
                return expression.getExpression();
            }
        }
        return null;
    }

    /** The initial state of a {@code @NoAlias} local declared with {@code initializer} (null: none). */
    VarState declared(Element var, ExpressionTree initializer) {
        if (initializer == null) {
            return VarState.UNASSIGNED;
        }
        boolean unique = unique(initializer);
        flow.scan(initializer, null);
        if (!unique && flow.state != null) {
            flow.reporter.error(initializer, Diagnostic.NOT_UNIQUE, var.getSimpleName(), initializer);
        }
        return unique ? VarState.OWNED : VarState.FAILED;
    }

    /**
     * An argument for a {@code @NoAlias} parameter must be unique (and is moved by the call), unless
     * it is an element of the new array a variable-arity call creates for the parameter
     * ({@code f(shared)} for {@code f(@NoAlias int[]... a)}): the parameter then owns that new array,
     * whose elements are shared as in {@code new int[][] {shared}} (ownership is shallow).
     */
    void argument(VariableElement parameter, ExpressionTree argument) {
        if (parameter != null) {
            flow.facts.read(parameter); // whether it is @NoAlias: its class's fingerprint holds it
        }
        boolean unique = parameter == null || !NoAliasRules.isNoAlias(parameter) || unique(argument)
                || varargsElement(parameter, argument);
        flow.scan(argument, null);
        if (!unique && flow.state != null) {
            flow.reporter.error(argument, Diagnostic.NOT_UNIQUE, parameter.getSimpleName(), argument);
        }
    }

    /** Whether {@code argument} for {@code parameter} is an element of a variable-arity call's new array. */
    private boolean varargsElement(VariableElement parameter, ExpressionTree argument) {
        if (!(parameter.getEnclosingElement() instanceof ExecutableElement method) || !method.isVarArgs()
                || !parameter.equals(method.getParameters().get(method.getParameters().size() - 1))) {
            return false;
        }
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(argument));
        return type != null && type.getKind() != javax.lang.model.type.TypeKind.ERROR
                && !flow.types.isAssignable(type, parameter.asType());
    }

    /** The result of a {@code @NoAlias} method must be unique. */
    void returned(ExpressionTree expression) {
        ExecutableElement method = flow.resultContract;
        if (expression != null && method != null && NoAliasRules.isNoAlias(method) && !unique(expression) && flow.state != null) {
            flow.reporter.error(expression, Diagnostic.NOT_UNIQUE, method.getSimpleName() + "()'s result"
                    + (method == flow.unitMethod ? "" : " (the lambda implements " + method.getEnclosingElement()
                            .getSimpleName() + "." + method.getSimpleName() + ")"), expression);
        }
    }
}
