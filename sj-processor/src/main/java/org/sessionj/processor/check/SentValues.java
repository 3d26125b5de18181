package org.sessionj.processor.check;

import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;

/**
 * The values a {@code send} argument may evaluate to, each with the type it is sent as (adv21 B7).
 *
 * <p>{@code SJSocket.send(Object)} is not generic, so javac types a reference conditional or switch
 * expression in its argument by the target, {@code Object} (JLS 15.25.3, 15.28.1), and infers a generic
 * call or diamond whose arguments leave its type arguments free ({@code List.of()}, {@code new
 * ArrayList<>()}, {@code Optional.empty()}) from that target too. Invariant: <em>each value a send may
 * send is checked on its own</em> — every arm of a conditional and every result of a switch expression
 * (recursively), and a value whose type arguments nothing but the target fixes is checked by its class
 * alone, as Java would type it in {@code T v = expr;} with the message type {@code T}; a generic
 * {@code receive()} sends the message type it receives.
 */
final class SentValues {
    /**
     * One value a send may send.
     *
     * @param tree the expression that yields it
     * @param type its static type
     * @param generic the generic method or constructor it calls, when only the target fixed its type
     *     arguments ({@link #fits}), else null
     */
    record Value(ExpressionTree tree, TypeMirror type, ExecutableElement generic) {
    }

    private final MethodChecker flow;

    SentValues(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * The values {@code argument} may evaluate to; the argument itself when it is not a poly expression.
     *
     * @param received the generic {@code receive()} calls checked so far, each with the message type it
     *     receives: such a call given to a send sends that type ({@code s.send(s.receive())}, the echo)
     */
    List<Value> of(ExpressionTree argument, Map<Tree, TypeMirror> received) {
        List<Value> values = new ArrayList<>(2);
        collect(argument, received, values);
        return values;
    }

    private void collect(ExpressionTree argument, Map<Tree, TypeMirror> received, List<Value> values) {
        ExpressionTree stripped = FlowScanner.strip(argument);
        TypeMirror receives = received.get(stripped);
        if (receives != null) {
            values.add(new Value(stripped, receives, null));
            return;
        }
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(stripped));
        boolean reference = type != null && (type.getKind() == TypeKind.DECLARED || type.getKind() == TypeKind.ARRAY);
        if (reference && stripped instanceof ConditionalExpressionTree conditional) {
            collect(conditional.getTrueExpression(), received, values);
            collect(conditional.getFalseExpression(), received, values);
        } else if (reference && stripped instanceof SwitchExpressionTree switchExpression) {
            for (ExpressionTree result : SwitchArms.values(switchExpression)) {
                collect(result, received, values);
            }
        } else {
            values.add(new Value(stripped, type, reference ? freeTypeArguments(stripped) : null));
        }
    }

    /**
     * The generic method or constructor {@code value} calls when it is a generic call without explicit
     * type arguments, or a diamond, whose parameters do not mention the type variables of its result:
     * javac fixed them from the target ({@code Object}) alone. Null otherwise.
     */
    private ExecutableElement freeTypeArguments(ExpressionTree value) {
        boolean call = value instanceof MethodInvocationTree invocation && invocation.getTypeArguments().isEmpty();
        boolean diamond = value instanceof NewClassTree creation && creation.getClassBody() == null
                && creation.getIdentifier() instanceof ParameterizedTypeTree type && type.getTypeArguments().isEmpty();
        if (!call && !diamond
                || !(flow.trees.getElement(flow.pathOf(value)) instanceof ExecutableElement executable)) {
            return null;
        }
        List<? extends TypeParameterElement> variables = variables(executable);
        return variables.isEmpty() || mentionsAny(executable, variables) ? null : executable;
    }

    /** The type variables a generic executable's result may be instantiated with. */
    private static List<? extends TypeParameterElement> variables(ExecutableElement executable) {
        if (executable.getKind() == ElementKind.CONSTRUCTOR
                && executable.getEnclosingElement() instanceof TypeElement created) {
            return created.getTypeParameters();
        }
        return executable.getTypeParameters();
    }

    /**
     * Whether some choice of the free type variables of {@code value} makes its result a subtype of
     * {@code wanted}, as Java would infer them in {@code T v = expr;}: the result's supertype of
     * {@code wanted}'s class must match {@code wanted}'s type arguments, each either exactly or by a
     * variable bound to it (the same one everywhere, within its bounds).
     */
    boolean fits(Value value, TypeMirror wanted) {
        if (value.generic() == null || !(wanted instanceof DeclaredType target)) {
            return false;
        }
        ExecutableElement executable = value.generic();
        TypeMirror result = executable.getKind() == ElementKind.CONSTRUCTOR
                ? executable.getEnclosingElement().asType() : executable.getReturnType();
        DeclaredType matching = supertypeOf(result, target.asElement());
        if (matching == null || matching.getTypeArguments().size() != target.getTypeArguments().size()) {
            return false;
        }
        List<? extends TypeParameterElement> variables = variables(executable);
        Map<Element, TypeMirror> chosen = new HashMap<>();
        for (int i = 0; i < target.getTypeArguments().size(); i++) {
            TypeMirror argument = matching.getTypeArguments().get(i);
            TypeMirror wantedArgument = target.getTypeArguments().get(i);
            if (argument instanceof TypeVariable variable && variables.contains(variable.asElement())) {
                TypeMirror earlier = chosen.putIfAbsent(variable.asElement(), wantedArgument);
                if (earlier != null && !flow.types.isSameType(earlier, wantedArgument)
                        || !withinBounds(wantedArgument, (TypeParameterElement) variable.asElement())) {
                    return false;
                }
            } else if (!flow.types.isSameType(argument, wantedArgument)) {
                return false;
            }
        }
        return true;
    }

    private boolean withinBounds(TypeMirror choice, TypeParameterElement variable) {
        if (choice.getKind() == TypeKind.WILDCARD) {
            return false; // a message type names its type arguments
        }
        for (TypeMirror bound : variable.getBounds()) {
            if (!flow.types.isSubtype(choice, flow.types.erasure(bound))) {
                return false;
            }
        }
        return true;
    }

    /** {@code type} or the supertype of it whose class is {@code wanted}, or null. */
    private DeclaredType supertypeOf(TypeMirror type, Element wanted) {
        if (type instanceof DeclaredType declared && declared.asElement().equals(wanted)) {
            return declared;
        }
        for (TypeMirror supertype : flow.types.directSupertypes(type)) {
            DeclaredType found = supertypeOf(supertype, wanted);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static boolean mentionsAny(ExecutableElement executable, List<? extends TypeParameterElement> variables) {
        for (Element parameter : executable.getParameters()) {
            if (mentions(parameter.asType(), variables)) {
                return true;
            }
        }
        return false;
    }

    private static boolean mentions(TypeMirror type, List<? extends TypeParameterElement> variables) {
        if (type instanceof TypeVariable variable) {
            return variables.contains(variable.asElement());
        }
        if (type instanceof ArrayType array) {
            return mentions(array.getComponentType(), variables);
        }
        if (type instanceof WildcardType wildcard) {
            return wildcard.getExtendsBound() != null && mentions(wildcard.getExtendsBound(), variables)
                    || wildcard.getSuperBound() != null && mentions(wildcard.getSuperBound(), variables);
        }
        if (type instanceof DeclaredType declared) {
            for (TypeMirror argument : declared.getTypeArguments()) {
                if (mentions(argument, variables)) {
                    return true;
                }
            }
        }
        return false;
    }
}
