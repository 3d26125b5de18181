package org.sessionj.processor.internal.protocol;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;

/**
 * The map keys a generic message type gets from its type arguments (adv16 A9): {@code !<R<Pt>>} for
 * {@code record R<K>(Map<K, String> m)} has keys of type {@code Pt}, which {@link MessageDecodability}
 * cannot see in {@code R}'s declaration (there the key is the variable {@code K}, decoded as
 * {@code Object}: strings). Walks the record components, at any depth through records, arrays, type
 * arguments and the JDK's collections, with the type variables bound to what the protocol wrote, and
 * returns the first key type that would not arrive as itself ({@link MessageDecodability#keyProblem}).
 */
final class BoundMapKeys {
    /** A type argument as the protocol wrote it: a resolved class and its array dimensions. */
    record Argument(TypeElement type, int arrays) {
    }

    private BoundMapKeys() {
    }

    /**
     * Why a map key inside {@code type} with its type parameters bound to {@code arguments} (in order; a null
     * element: not a class) would not arrive as itself, or null.
     */
    static String problem(TypeElement type, List<Argument> arguments) {
        List<? extends TypeParameterElement> parameters = type.getTypeParameters();
        if (parameters.size() != arguments.size()) {
            return null; // a raw or mistyped use: reported elsewhere
        }
        Map<Element, Argument> bindings = new HashMap<>();
        for (int i = 0; i < parameters.size(); i++) {
            if (arguments.get(i) != null && arguments.get(i).type() != null) {
                bindings.put(parameters.get(i), arguments.get(i));
            }
        }
        return bindings.isEmpty() ? null : components(type, bindings, new HashSet<>());
    }

    private static String components(TypeElement type, Map<Element, Argument> bindings, Set<TypeElement> seen) {
        if (type.getKind() != ElementKind.RECORD || !seen.add(type)) {
            return null;
        }
        for (RecordComponentElement component : type.getRecordComponents()) {
            String inner = walk(component.asType(), bindings, seen);
            if (inner != null) {
                return "its component '" + component.getSimpleName() + "' has a type no peer can decode, " + inner;
            }
        }
        return null;
    }

    private static String walk(TypeMirror type, Map<Element, Argument> bindings, Set<TypeElement> seen) {
        if (type instanceof ArrayType array) {
            return walk(array.getComponentType(), bindings, seen);
        }
        if (type instanceof WildcardType wildcard) {
            return wildcard.getExtendsBound() == null ? null : walk(wildcard.getExtendsBound(), bindings, seen);
        }
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)) {
            return null;
        }
        List<? extends TypeMirror> arguments = declared.getTypeArguments();
        if (MessageDecodability.isJdkMap(element) && arguments.size() == 2
                && arguments.get(0) instanceof TypeVariable variable) {
            Argument key = bindings.get(variable.asElement());
            String problem = key == null ? null : MessageDecodability.keyProblem(key.type(), key.arrays());
            if (problem != null) {
                return "'" + element.getQualifiedName() + "': " + problem;
            }
        }
        for (TypeMirror argument : arguments) {
            String inner = walk(argument, bindings, seen);
            if (inner != null) {
                return inner;
            }
        }
        if (element.getKind() != ElementKind.RECORD || arguments.isEmpty()) {
            return null;
        }
        // A generic record inside: its own type variables bound through ours (R<K> holding S<K>).
        Map<Element, Argument> inner = new HashMap<>();
        List<? extends TypeParameterElement> parameters = element.getTypeParameters();
        for (int i = 0; i < parameters.size() && i < arguments.size(); i++) {
            Argument bound = bound(arguments.get(i), bindings);
            if (bound != null) {
                inner.put(parameters.get(i), bound);
            }
        }
        String problem = inner.isEmpty() ? null : components(element, inner, seen);
        return problem == null ? null : "'" + element.getQualifiedName() + "': " + problem;
    }

    /** What {@code type} is with {@code bindings} applied: a class and its array dimensions, or null. */
    private static Argument bound(TypeMirror type, Map<Element, Argument> bindings) {
        int arrays = 0;
        while (type instanceof ArrayType array) {
            type = array.getComponentType();
            arrays++;
        }
        if (type instanceof TypeVariable variable) {
            Argument argument = bindings.get(variable.asElement());
            return argument == null ? null : new Argument(argument.type(), argument.arrays() + arrays);
        }
        return type instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                ? new Argument(element, arrays) : null;
    }
}
