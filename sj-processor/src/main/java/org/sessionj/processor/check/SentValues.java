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
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.PrimitiveType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;

/**
 * The values a {@code send} argument may evaluate to, each with the type it is sent as (adv21 B7).
 *
 * <p>{@code SJSocket.send(Object)} is not generic, so javac types a reference conditional or switch
 * expression in its argument by the target, {@code Object} (JLS 15.25.3, 15.28.1), and infers a generic
 * call or diamond from that target and its arguments alone ({@code List.of()} as {@code List<Object>},
 * {@code List.of(circle, square)} as {@code List<Record & Shape>}). Invariant: <em>each value a send may
 * send is checked on its own</em> — every arm of a conditional and every result of a switch expression
 * (recursively), and a generic call or diamond without explicit type arguments as Java would type it
 * in {@code T v = expr;} with the message type {@code T}: its type arguments are chosen from the message
 * type and every argument must then fit its parameter (adv22 C4); a generic {@code receive()} sends the
 * message type it receives.
 */
final class SentValues {
    /**
     * One value a send may send.
     *
     * @param tree the expression that yields it
     * @param type its static type
     * @param generic the generic method or constructor it calls without explicit type arguments, which
     *     {@link #fits} may instantiate with the message type's, else null
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
            values.add(new Value(stripped, type, reference ? inferredGeneric(stripped) : null));
        }
    }

    /**
     * The generic method or constructor {@code value} calls when it is a generic call without explicit
     * type arguments, or a diamond: javac inferred its type arguments against the target {@code Object}
     * and its arguments alone. Null otherwise.
     */
    private ExecutableElement inferredGeneric(ExpressionTree value) {
        boolean call = value instanceof MethodInvocationTree invocation && invocation.getTypeArguments().isEmpty();
        boolean diamond = value instanceof NewClassTree creation && creation.getClassBody() == null
                && creation.getIdentifier() instanceof ParameterizedTypeTree type && type.getTypeArguments().isEmpty();
        if (!call && !diamond
                || !(flow.trees.getElement(flow.pathOf(value)) instanceof ExecutableElement executable)) {
            return null;
        }
        return variables(executable).isEmpty() ? null : executable;
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
     * Whether some choice of the type variables of {@code value} makes it a {@code wanted}, as Java would
     * infer them in {@code T v = expr;}: the result's supertype of {@code wanted}'s class must match
     * {@code wanted}'s type arguments, each either exactly or by a variable bound to it (the same one
     * everywhere, within its bounds), and with the variables so chosen every argument must fit its
     * parameter ({@code List.of(circle, square)} is a {@code List<Shape>}; {@code List.of(1)} is no
     * {@code List<String>}). A variable the result does not fix but a parameter mentions fails.
     */
    boolean fits(Value value, TypeMirror wanted) {
        DeclaredType matching = resultAs(value, wanted);
        if (matching == null || matching.getTypeArguments().size() != ((DeclaredType) wanted).getTypeArguments().size()) {
            return false;
        }
        DeclaredType target = (DeclaredType) wanted;
        ExecutableElement executable = value.generic();
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
        return argumentsFit(value.tree(), executable, chosen);
    }

    /**
     * Whether {@code value} is a generic value whose class is a {@code wanted} for some type arguments: then a
     * refusal is about its arguments, not its class (the hint of SJ013's message).
     */
    boolean classFits(Value value, TypeMirror wanted) {
        return resultAs(value, wanted) != null;
    }

    /**
     * The supertype of a generic {@code value}'s declared result (type variables unchosen) whose class is
     * {@code wanted}'s; null when {@code value} is not such a value or its class is no {@code wanted}.
     */
    private DeclaredType resultAs(Value value, TypeMirror wanted) {
        if (value.generic() == null || !(wanted instanceof DeclaredType target)) {
            return null;
        }
        ExecutableElement executable = value.generic();
        TypeMirror result = executable.getKind() == ElementKind.CONSTRUCTOR
                ? executable.getEnclosingElement().asType() : executable.getReturnType();
        return supertypeOf(result, target.asElement());
    }

    /**
     * Whether each argument of the call or creation {@code tree}, with the type javac gave it, fits its
     * parameter of {@code executable} with the type variables replaced by {@code chosen} (a variable-arity
     * parameter taking either an array or each trailing argument), as the applicability check of
     * {@code executable} instantiated explicitly would decide (JLS 15.12.2): by subtyping, after boxing
     * a primitive argument; no unchecked conversion (a raw list is not a {@code List<Shape>}).
     */
    private boolean argumentsFit(ExpressionTree tree, ExecutableElement executable, Map<Element, TypeMirror> chosen) {
        List<? extends ExpressionTree> arguments = tree instanceof MethodInvocationTree invocation
                ? invocation.getArguments() : ((NewClassTree) tree).getArguments();
        List<? extends VariableElement> parameters = executable.getParameters();
        int count = parameters.size();
        for (int i = 0; i < arguments.size(); i++) {
            TypeMirror parameter = substitute(parameters.get(Math.min(i, count - 1)).asType(), chosen);
            TypeMirror argument = flow.trees.getTypeMirror(flow.pathOf(arguments.get(i)));
            if (parameter == null || argument == null) {
                return false;
            }
            TypeMirror declared = parameters.get(Math.min(i, count - 1)).asType();
            if (executable.isVarArgs() && i >= count - 1) {
                boolean asArray = arguments.size() == count && passes(argument, parameter);
                if (asArray ? !travelsAsChosen(argument, declared, chosen)
                        : !(parameter instanceof ArrayType array && passes(argument, array.getComponentType())
                                && declared instanceof ArrayType declaredArray
                                && travelsAsChosen(argument, declaredArray.getComponentType(), chosen))) {
                    return false;
                }
            } else if (!passes(argument, parameter) || !travelsAsChosen(argument, declared, chosen)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether an argument of static type {@code argument}, given where {@code declared} (the parameter's type
     * before the variables are replaced) puts a variable chosen in {@code chosen}, arrives as what it is
     * when the value travels as the message type ({@link MessageTypes#arrivesAsAnotherClass}): a {@code Sub}
     * in {@code List.of(new Sub())} sent as {@code !<List<Base>>} of a concrete, open {@code Base} would be
     * decoded as a {@code Base} (adv22 C11), a record in {@code Map.of("k", record)} sent as
     * {@code !<Map<String,Object>>} as a map. A type argument of the argument in such a place is read the
     * same way ({@code new HashSet<>(subs)}); a wildcard there is read by its upper bound, and one without
     * is not shown to arrive as itself.
     */
    private boolean travelsAsChosen(TypeMirror argument, TypeMirror declared, Map<Element, TypeMirror> chosen) {
        TypeMirror sent = argument instanceof WildcardType wildcard ? wildcard.getExtendsBound() : argument;
        if (sent == null) {
            return false;
        }
        if (declared instanceof TypeVariable variable && chosen.containsKey(variable.asElement())) {
            TypeMirror value = sent instanceof PrimitiveType primitive ? flow.types.boxedClass(primitive).asType() : sent;
            return flow.messages.arrivesAsAnotherClass(value, chosen.get(variable.asElement())) == null;
        }
        if (declared instanceof ArrayType declaredArray) {
            return !(sent instanceof ArrayType array)
                    || travelsAsChosen(array.getComponentType(), declaredArray.getComponentType(), chosen);
        }
        if (declared instanceof WildcardType wildcard) {
            return wildcard.getExtendsBound() == null || travelsAsChosen(sent, wildcard.getExtendsBound(), chosen);
        }
        if (declared instanceof DeclaredType type && !type.getTypeArguments().isEmpty()) {
            DeclaredType matching = supertypeOf(sent, type.asElement());
            if (matching == null || matching.getTypeArguments().size() != type.getTypeArguments().size()) {
                return matching == null;
            }
            for (int i = 0; i < type.getTypeArguments().size(); i++) {
                if (!travelsAsChosen(matching.getTypeArguments().get(i), type.getTypeArguments().get(i), chosen)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether an argument of type {@code argument} may be passed where {@code parameter} is declared. */
    private boolean passes(TypeMirror argument, TypeMirror parameter) {
        if (parameter.getKind().isPrimitive()) {
            return flow.types.isAssignable(argument, parameter);
        }
        TypeMirror reference = argument instanceof PrimitiveType primitive
                ? flow.types.boxedClass(primitive).asType() : argument;
        return flow.types.isSubtype(reference, parameter);
    }

    /** {@code type} with each type variable replaced by its choice in {@code chosen}; null if one is not chosen. */
    private TypeMirror substitute(TypeMirror type, Map<Element, TypeMirror> chosen) {
        if (type instanceof TypeVariable variable) {
            return chosen.get(variable.asElement()); // a variable the message type does not fix: null
        }
        if (type instanceof ArrayType array) {
            TypeMirror component = substitute(array.getComponentType(), chosen);
            return component == null ? null : flow.types.getArrayType(component);
        }
        if (type instanceof WildcardType wildcard) {
            TypeMirror extendsBound = wildcard.getExtendsBound() == null ? null
                    : substitute(wildcard.getExtendsBound(), chosen);
            TypeMirror superBound = wildcard.getSuperBound() == null ? null
                    : substitute(wildcard.getSuperBound(), chosen);
            boolean lost = wildcard.getExtendsBound() != null && extendsBound == null
                    || wildcard.getSuperBound() != null && superBound == null;
            return lost ? null : flow.types.getWildcardType(extendsBound, superBound);
        }
        if (type instanceof DeclaredType declared && !declared.getTypeArguments().isEmpty()) {
            TypeMirror[] arguments = new TypeMirror[declared.getTypeArguments().size()];
            for (int i = 0; i < arguments.length; i++) {
                arguments[i] = substitute(declared.getTypeArguments().get(i), chosen);
                if (arguments[i] == null) {
                    return null;
                }
            }
            TypeElement element = (TypeElement) declared.asElement();
            try {
                return declared.getEnclosingType() instanceof DeclaredType outer && !outer.getTypeArguments().isEmpty()
                        ? flow.types.getDeclaredType((DeclaredType) substitute(outer, chosen), element, arguments)
                        : flow.types.getDeclaredType(element, arguments);
            } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
                return null; // a shape javax.lang.model cannot rebuild: not shown to fit
            }
        }
        return type;
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
}
