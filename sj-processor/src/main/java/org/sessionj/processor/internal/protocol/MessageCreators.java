package org.sessionj.processor.internal.protocol;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import org.sessionj.types.internal.JdkMessageTypes;

/**
 * How a receiver creates a value of a class or enum of the program from what its sender writes, as the
 * runtime's codec (Jackson, with no parameter-names module) does it. Invariant: <em>a message type is
 * written in a shape its own creators read back</em>:
 * <ul>
 * <li>a class written as an object of its fields needs a no-argument constructor (any access), a
 *     {@code @ConstructorProperties} constructor, or a {@code @JsonCreator} whose every parameter is named
 *     by {@code @JsonProperty} (the codec cannot see parameter names: adv19 A5); a one-argument creator
 *     without a name ({@code @JsonCreator(mode = DELEGATING)}, or the default mode) creates one from a single
 *     value only, and so does a one-argument constructor from a string, number or boolean (adv15 A21);</li>
 * <li>a class written as a single value ({@code @JsonValue}) needs a creator from one value: a one-argument
 *     constructor of the value's type (a string, number or boolean), or a one-argument {@code @JsonCreator} (adv19 A6: with none, every receive failed);</li>
 * <li>an enum written as an object ({@code @JsonFormat(shape = OBJECT)}) needs a {@code @JsonCreator}
 *     factory: the codec reads enums from their names otherwise (adv19 A6).</li>
 * </ul>
 * The runtime's load check asks the codec the same (sj-runtime's Decodability), with the kinds of single
 * values from the same table (sj-api's JdkMessageTypes); sj-crosscheck's MessageTypeAgreementTest runs both on
 * the same classes.
 */
final class MessageCreators {
    private static final String JSON_CREATOR = "com.fasterxml.jackson.annotation.JsonCreator";
    private static final String JSON_PROPERTY = "com.fasterxml.jackson.annotation.JsonProperty";

    private MessageCreators() {
    }

    /**
     * Why a receiver cannot create the concrete, static class {@code type} of the program from what its
     * writer writes, or null.
     */
    static String classProblem(TypeElement type) {
        String valueKind = null;
        boolean travelsAsOneValue = false;
        for (Element member : type.getEnclosedElements()) {
            if (annotated(member, "com.fasterxml.jackson.annotation.JsonValue")) {
                travelsAsOneValue = true;
                TypeMirror value = member instanceof ExecutableElement method ? method.getReturnType() : member.asType();
                valueKind = JdkMessageTypes.writtenKind(typeName(value));
            }
        }
        boolean fromProperties = false;
        boolean delegating = false; // created from one value of any type, converted to the parameter's
        java.util.Set<String> fromKinds = new java.util.HashSet<>();
        for (Element member : type.getEnclosedElements()) {
            if (!(member instanceof ExecutableElement executable)
                    || executable.getKind() != ElementKind.CONSTRUCTOR && !executable.getModifiers().contains(Modifier.STATIC)) {
                continue;
            }
            int parameters = executable.getParameters().size();
            if (annotated(executable, JSON_CREATOR)) {
                String mode = enumAttribute(executable, JSON_CREATOR, "mode");
                if ("DISABLED".equals(mode)) {
                    continue;
                }
                String unnamed = unnamedParameter(executable);
                if ("DELEGATING".equals(mode) || !"PROPERTIES".equals(mode) && parameters == 1 && unnamed != null) {
                    delegating = true;
                } else if (unnamed != null) {
                    return "its @JsonCreator " + describe(executable) + " does not name its parameter '" + unnamed
                            + "': the codec cannot see parameter names, so a receiver could not match it to a field; "
                            + "annotate each parameter with @JsonProperty(\"field\")";
                } else {
                    fromProperties = true;
                }
                continue;
            }
            if (executable.getKind() != ElementKind.CONSTRUCTOR) {
                continue;
            }
            if (parameters == 0 || annotated(executable, "java.beans.ConstructorProperties")) {
                fromProperties = true;
            } else if (parameters == 1) {
                String kind = JdkMessageTypes.SINGLE_VALUE_KINDS.get(typeName(executable.getParameters().get(0).asType()));
                if (kind != null) {
                    fromKinds.add(kind); // the codec finds a constructor from a string, number or boolean by itself
                }
            }
        }
        if (travelsAsOneValue) {
            // an int is read by a long's constructor too (Jackson's createFromInt falls back to it)
            boolean readBack = delegating || valueKind != null && (fromKinds.contains(valueKind)
                    || valueKind.equals("int") && fromKinds.contains("long"));
            return readBack ? null
                    : "it travels as a single value (@JsonValue" + (valueKind == null ? "" : ", " + valueKind)
                            + "), but a receiver has no way to create one from that value: give it a one-argument "
                            + "constructor of the @JsonValue's type, or a one-argument @JsonCreator";
        }
        if (fromProperties) {
            return null;
        }
        if (delegating || !fromKinds.isEmpty()) {
            return "it travels as an object of its fields, but a receiver can create one only from a single value (its "
                    + (delegating ? "one-argument @JsonCreator" : "one-argument constructor")
                    + "): give it a no-argument constructor (any access), a "
                    + "@JsonCreator constructor whose parameters are its fields (each named by @JsonProperty), or make "
                    + "it a record";
        }
        return "a receiver has no way to create one: give it a no-argument constructor (any access; its fields, "
                + "whatever their access, are set back), a @JsonCreator constructor, or make it a record";
    }

    /** Why a receiver cannot create the enum {@code type} from what its writer writes, or null. */
    static String enumProblem(TypeElement type) {
        String shape = enumAttribute(type, "com.fasterxml.jackson.annotation.JsonFormat", "shape");
        if (!"OBJECT".equals(shape) && !"POJO".equals(shape)) {
            return null;
        }
        for (Element member : type.getEnclosedElements()) {
            if (member.getKind() == ElementKind.METHOD && member.getModifiers().contains(Modifier.STATIC)
                    && annotated(member, JSON_CREATOR) && !"DISABLED".equals(enumAttribute(member, JSON_CREATOR, "mode"))) {
                return null;
            }
        }
        return "it is an enum written as an object (@JsonFormat(shape = " + shape + ")), but a receiver reads an enum "
                + "from its name: add a static @JsonCreator factory that reads the object, or drop the shape";
    }

    /** The first parameter of {@code creator} that names no property ({@code @JsonProperty} with a name), or null. */
    private static String unnamedParameter(ExecutableElement creator) {
        for (VariableElement parameter : creator.getParameters()) {
            AnnotationValue name = attribute(parameter, JSON_PROPERTY, "value");
            boolean injected = annotated(parameter, "com.fasterxml.jackson.annotation.JacksonInject");
            if (!injected && (name == null || name.getValue().toString().isEmpty())) {
                return parameter.getSimpleName().toString();
            }
        }
        return null;
    }

    private static String describe(ExecutableElement executable) {
        return executable.getKind() == ElementKind.CONSTRUCTOR ? "constructor"
                : "factory '" + executable.getSimpleName() + "'";
    }

    private static String typeName(TypeMirror type) {
        return type.getKind() == TypeKind.DECLARED
                ? ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName().toString()
                : type.getKind().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether {@code element} carries the annotation named {@code annotation}. */
    static boolean annotated(Element element, String annotation) {
        return mirror(element, annotation) != null;
    }

    /**
     * The simple name of the enum constant that {@code element}'s {@code annotation} gives its {@code attribute}
     * explicitly, or null (not annotated, or the attribute left at its default).
     */
    static String enumAttribute(Element element, String annotation, String attribute) {
        AnnotationValue value = attribute(element, annotation, attribute);
        return value != null && value.getValue() instanceof VariableElement constant ? constant.getSimpleName().toString()
                : null;
    }

    private static AnnotationValue attribute(Element element, String annotation, String attribute) {
        AnnotationMirror mirror = mirror(element, annotation);
        if (mirror != null) {
            for (var entry : mirror.getElementValues().entrySet()) {
                if (entry.getKey().getSimpleName().contentEquals(attribute)) {
                    return entry.getValue();
                }
            }
        }
        return null;
    }

    private static AnnotationMirror mirror(Element element, String annotation) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(annotation)) {
                return mirror;
            }
        }
        return null;
    }
}
