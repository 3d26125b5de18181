package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;
import org.sessionj.processor.internal.protocol.MessageDecodability;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;
import org.sessionj.types.Payload;

/**
 * Java types of messages: the type a protocol's payload denotes, whether a sent value fits it, and
 * the type a received value is assigned to.
 */
final class MessageTypes {
    private final Types types;
    private final Trees trees;
    private final ProtocolRegistry registry;

    MessageTypes(Types types, Trees trees, ProtocolRegistry registry) {
        this.types = types;
        this.trees = trees;
        this.registry = registry;
    }

    /**
     * The type of each payload asked for, kept for the compilation (javac's types belong to it, as does
     * this object): every send and receive asks, and building the type again each time (a class lookup
     * by name, erasure, type arguments) is interpreted code in a processor loaded afresh per compilation.
     */
    private final java.util.Map<Payload.JavaType, TypeMirror> mirrors = new java.util.HashMap<>();

    /** The Java type a (resolved) payload denotes, or null if it cannot be built here. */
    TypeMirror mirror(Payload.JavaType type) {
        TypeMirror known = mirrors.get(type);
        if (known == null && !mirrors.containsKey(type)) {
            known = build(type);
            mirrors.put(type, known);
        }
        return known;
    }

    private TypeMirror build(Payload.JavaType type) {
        TypeMirror base;
        switch (type.name()) {
            case "boolean", "byte", "short", "char", "int", "long", "float", "double" ->
                    base = types.getPrimitiveType(TypeKind.valueOf(type.name().toUpperCase(java.util.Locale.ROOT)));
            default -> {
                TypeElement element = registry.typeForBinaryName(type.name()).orElse(null);
                if (element == null) {
                    return null;
                }
                base = types.erasure(element.asType());
                if (!type.typeArguments().isEmpty()
                        && element.getTypeParameters().size() == type.typeArguments().size()) {
                    List<TypeMirror> arguments = new ArrayList<>();
                    for (Payload.JavaType argument : type.typeArguments()) {
                        TypeMirror mirror = mirror(argument);
                        if (mirror == null || mirror.getKind().isPrimitive()) {
                            arguments = null;
                            break;
                        }
                        arguments.add(mirror);
                    }
                    if (arguments != null) {
                        base = types.getDeclaredType(element, arguments.toArray(new TypeMirror[0]));
                    }
                }
            }
        }
        for (int i = 0; i < type.arrayDimensions(); i++) {
            base = types.getArrayType(base);
        }
        return base;
    }

    boolean sendCompatible(TypeMirror argument, TypeMirror wanted) {
        if (argument == null || argument.getKind() == TypeKind.NULL) {
            return !wanted.getKind().isPrimitive();
        }
        if (wanted.getKind().isPrimitive()) {
            // The primitive overload decides what goes on the wire: no silent widening, and no box,
            // which may be null where the type promises a value (unbox it explicitly: x.intValue()).
            return types.isSameType(argument, wanted);
        }
        if (argument.getKind().isPrimitive()) {
            return types.isAssignable(argument, wanted); // boxing, then widening of the box
        }
        // Subtyping, not assignment: assignment also allows the unchecked conversion of a raw type
        // (a raw List to List<String>), whose elements nobody has checked; the runtime monitor sees
        // only the erased class, so such a value would reach the peer as a List<String> of anything.
        return types.isSubtype(argument, wanted);
    }

    /**
     * Invariant: <em>a value sent as a class arrives as its own class</em> (docs/wire-format.md, "What a
     * value may be sent as"). Values carry no class on the wire, so a receiver decodes the declared
     * class: a subclass sent where the type names a concrete class that is neither final nor sealed
     * ({@code Circle} for {@code !<Shape>}) would arrive as a {@code Shape} (or fail on its extra
     * properties), and a class below a {@code non-sealed} member of a sealed family is not among the
     * classes the receiver accepts. The runtime monitor refuses both at the send; this says why the
     * static type {@code argument}, a subtype of {@code wanted}, is such a class, or returns null.
     */
    String arrivesAsAnotherClass(TypeMirror argument, TypeMirror wanted) {
        if (argument instanceof ArrayType sentArray && wanted instanceof ArrayType declaredArray) {
            // Java's arrays are covariant (a Dog[] is an Animal[]), the wire's are not: each element is
            // decoded as the declared component (adv15 A6).
            String element = arrivesAsAnotherClass(sentArray.getComponentType(), declaredArray.getComponentType());
            return element == null ? null : "each element: " + element;
        }
        if (wanted instanceof DeclaredType object && object.asElement() instanceof TypeElement objectType
                && objectType.getQualifiedName().contentEquals("java.lang.Object")) {
            return arrivesUntyped(argument);
        }
        if (!(argument instanceof DeclaredType sent) || !(wanted instanceof DeclaredType declared)
                || !(sent.asElement() instanceof TypeElement actual)
                || !(declared.asElement() instanceof TypeElement target) || actual.equals(target)) {
            return null;
        }
        boolean concrete = target.getKind() == ElementKind.CLASS && !target.getModifiers().contains(Modifier.ABSTRACT);
        if (concrete && !target.getModifiers().contains(Modifier.FINAL) && !target.getModifiers().contains(Modifier.SEALED)
                && !target.getQualifiedName().contentEquals("java.lang.Object")
                && !(target.getQualifiedName().toString().startsWith("java.") && MessageDecodability.collectionOrMap(target))) {
            return "a " + name(actual) + " would arrive as a " + target.getQualifiedName()
                    + ": values are decoded as the declared class; send it as its own type, or make "
                    + target.getSimpleName() + " sealed";
        }
        if (target.getModifiers().contains(Modifier.SEALED) && !target.getQualifiedName().toString().startsWith("java.")) {
            TypeElement open = nonSealedAbove(actual, target);
            if (open != null) {
                return "a " + name(actual) + " is below the non-sealed " + open.getQualifiedName()
                        + ", which its receiver decodes with its own class only; send it as its own type";
            }
        }
        return null;
    }

    /**
     * Where the type is {@code Object} a value arrives as the wire's untyped form (maps, lists, strings,
     * numbers, booleans): why a value of static type {@code argument} would certainly arrive as another
     * class there — a record, enum, array or class of the program, a set, a small-number box or a
     * character — or null (the runtime monitor checks what a static type cannot tell, an interface's value).
     */
    private String arrivesUntyped(TypeMirror argument) {
        String form = null;
        if (argument.getKind().isPrimitive()) {
            // boxed by the send overload (send(long), send(char)…), then sent as that box (adv15 A11)
            form = switch (argument.getKind()) {
                case LONG, SHORT, BYTE -> "an Integer when it fits in an int";
                case CHAR -> "a String";
                default -> null;
            };
        } else if (argument instanceof ArrayType) {
            form = "a List";
        } else if (argument instanceof DeclaredType sent && sent.asElement() instanceof TypeElement actual) {
            String name = actual.getQualifiedName().toString();
            if (actual.getKind() == ElementKind.ENUM || name.equals("java.lang.Character")) {
                form = "a String";
            } else if (name.equals("java.lang.Long") || name.equals("java.lang.Short") || name.equals("java.lang.Byte")) {
                form = "an Integer when it fits in an int";
            } else if (name.equals("java.util.Set") || isSubclassOf(sent, "java.util.Set")) {
                form = "a List";
            } else if (actual.getKind() == ElementKind.RECORD
                    || actual.getKind() == ElementKind.CLASS && !name.startsWith("java.")) {
                form = "a Map of its properties";
            }
        }
        String sent = argument.toString();
        String article = "aeiouAEIOU".indexOf(sent.charAt(0)) >= 0 ? "an " : "a ";
        return form == null ? null : article + sent + " where the type is Object would arrive as " + form
                + " (an Object carries strings, booleans, Integer, Double, lists and String-keyed maps of them as "
                + "themselves); declare its own type in the protocol";
    }

    private boolean isSubclassOf(TypeMirror type, String superName) {
        for (TypeMirror supertype : types.directSupertypes(type)) {
            if (supertype instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                    && element.getQualifiedName().contentEquals(superName) || isSubclassOf(supertype, superName)) {
                return true;
            }
        }
        return false;
    }

    private static String name(TypeElement type) {
        return type.getQualifiedName().isEmpty() ? "value of an anonymous subclass" : type.getQualifiedName().toString();
    }

    /**
     * The {@code non-sealed} class or interface strictly above {@code type} on its way up to the sealed
     * {@code root}, or null.
     */
    private TypeElement nonSealedAbove(TypeElement type, TypeElement root) {
        List<TypeMirror> supertypes = new ArrayList<>(type.getInterfaces());
        supertypes.add(type.getSuperclass());
        for (TypeMirror supertype : supertypes) {
            if (supertype instanceof DeclaredType declared && declared.asElement() instanceof TypeElement parent
                    && !parent.equals(root) && types.isSubtype(types.erasure(parent.asType()), types.erasure(root.asType()))) {
                if (parent.getModifiers().contains(Modifier.NON_SEALED)) {
                    return parent;
                }
                TypeElement higher = nonSealedAbove(parent, root);
                if (higher != null) {
                    return higher;
                }
            }
        }
        return null;
    }

    /**
     * Whether {@code argument} reaches {@code wanted} only through an unchecked conversion: a raw
     * type (or a class whose supertype on the way is raw) where the message type is parameterised.
     */
    boolean rawWhereParameterised(TypeMirror argument, TypeMirror wanted) {
        return argument != null && !argument.getKind().isPrimitive() && argument.getKind() != TypeKind.NULL
                && !wanted.getKind().isPrimitive() && types.isAssignable(argument, wanted)
                && !types.isSubtype(argument, wanted);
    }

    /**
     * Whether a generic {@code receive()} of {@code payload} may be assigned to {@code target}: the
     * call's type argument is inferred from the target, and the received value (the payload or its
     * box) is cast to it at run time, so Java's widening or unboxing into another primitive does not
     * apply: a primitive target needs exactly the payload's primitive (not its box, which may be
     * null: the peer may send null where the type says {@code Integer}); a reference target must be a
     * supertype of the payload's box.
     */
    boolean receiveCompatible(TypeMirror payload, TypeMirror target) {
        if (target.getKind().isPrimitive()) {
            return payload.getKind().isPrimitive() && types.isSameType(payload, target);
        }
        TypeMirror value = payload.getKind().isPrimitive()
                ? types.boxedClass((javax.lang.model.type.PrimitiveType) payload).asType() : payload;
        return types.isAssignable(value, target);
    }

    /** Whether {@code type} is a box ({@code Integer}, {@code Boolean}, …). */
    boolean isBox(TypeMirror type) {
        return !type.getKind().isPrimitive() && unboxedOrNull(type) != null;
    }

    /** Whether {@code type} is the box of the primitive {@code primitive}. */
    boolean unboxesTo(TypeMirror type, TypeMirror primitive) {
        TypeMirror unboxed = unboxedOrNull(type);
        return unboxed != null && types.isSameType(unboxed, primitive);
    }

    private TypeMirror unboxedOrNull(TypeMirror type) {
        try {
            return types.unboxedType(type);
        } catch (IllegalArgumentException notABox) {
            return null;
        }
    }

    /** The type a received value is assigned to: the variable, assignment target or cast, else the inferred type. */
    TypeMirror receiveTarget(TreePath invocation) {
        TreePath parentPath = invocation.getParentPath();
        Tree child = invocation.getLeaf();
        while (parentPath.getLeaf() instanceof ParenthesizedTree) {
            child = parentPath.getLeaf();
            parentPath = parentPath.getParentPath();
        }
        Tree parent = parentPath.getLeaf();
        if (parent instanceof VariableTree) {
            Element variable = trees.getElement(parentPath);
            if (variable != null) {
                return variable.asType();
            }
        }
        if (parent instanceof AssignmentTree assignment && assignment.getExpression() == child) {
            return trees.getTypeMirror(new TreePath(parentPath, assignment.getVariable()));
        }
        if (parent instanceof TypeCastTree cast) {
            return trees.getTypeMirror(new TreePath(parentPath, cast.getType()));
        }
        return trees.getTypeMirror(invocation);
    }

}
