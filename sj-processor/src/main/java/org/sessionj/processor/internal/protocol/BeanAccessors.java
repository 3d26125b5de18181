package org.sessionj.processor.internal.protocol;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
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

/**
 * A message class's bean accessors as the runtime's codec (Jackson, with every field visible) sees them, so
 * that SJ018 decides what the runtime's load check decides (adv17 A9). Jackson writes a property for each
 * public getter ({@code getX()}, {@code isX()} returning {@code boolean} or {@code Boolean}) and each method
 * marked {@code @JsonProperty}, named by its legacy rule ({@code getURL()} is {@code url}: the leading
 * capitals lowered); a receiver that knows no such property (no field, setter or creator parameter of that
 * name, no {@code @JsonIgnoreProperties}) rejects the message, so the runtime refuses the protocol. A getter
 * of a collection or map is its own setter (Jackson adds to what it returns). A setter's parameter is
 * a part the receiver decodes, as a field is.
 *
 * <p>Only for a class of the program that travels as its fields (not a record, whose accessors Jackson
 * does not look at here, and not one with its own {@code @JsonAutoDetect}); sj-crosscheck's
 * MessageTypeAgreementTest runs each shape through both sides.
 */
final class BeanAccessors {
    private static final String JSON_PROPERTY = "com.fasterxml.jackson.annotation.JsonProperty";
    private static final String JSON_IGNORE = "com.fasterxml.jackson.annotation.JsonIgnore";
    private static final String JSON_IGNORE_PROPERTIES = "com.fasterxml.jackson.annotation.JsonIgnoreProperties";

    private BeanAccessors() {
    }

    /**
     * Why a getter of {@code type} (or of a superclass of the program) writes a property a receiver does not
     * know, or null. {@code hierarchy}: {@code type} and its superclasses of the program, nearest first.
     */
    static String unknownProperty(List<TypeElement> hierarchy) {
        Set<String> known = new HashSet<>();
        Set<String> ignored = new HashSet<>();
        for (TypeElement c : hierarchy) {
            AnnotationMirror ignoring = annotation(c, JSON_IGNORE_PROPERTIES);
            if (ignoring != null) {
                if (Boolean.TRUE.equals(value(ignoring, "ignoreUnknown"))) {
                    return null;
                }
                if (value(ignoring, "value") instanceof List<?> names) {
                    for (Object name : names) {
                        known.add(String.valueOf(((AnnotationValue) name).getValue()));
                    }
                }
            }
            for (Element member : c.getEnclosedElements()) {
                if (member.getModifiers().contains(Modifier.STATIC)) {
                    continue;
                }
                String implicit = implicitName(member);
                if (implicit == null) {
                    if (member.getKind() == ElementKind.CONSTRUCTOR) {
                        for (VariableElement parameter : ((ExecutableElement) member).getParameters()) {
                            addExplicit(parameter, known);
                        }
                    }
                    continue;
                }
                if (annotation(member, JSON_IGNORE) != null) {
                    ignored.add(implicit);
                }
                // A transient field is no accessor at all (the codec drops it), not even the reader's.
                boolean field = member.getKind() == ElementKind.FIELD && !member.getModifiers().contains(Modifier.TRANSIENT);
                if (field || isSetter(member)
                        || isGetter(member) && collectionOrMap(((ExecutableElement) member).getReturnType())) {
                    known.add(implicit);
                    addExplicit(member, known);
                }
            }
        }
        for (TypeElement c : hierarchy) {
            for (Element member : c.getEnclosedElements()) {
                if (member.getModifiers().contains(Modifier.STATIC) || !isGetter(member)) {
                    continue;
                }
                String implicit = implicitName(member);
                String explicit = explicitName(member);
                boolean marked = annotation(member, JSON_PROPERTY) != null;
                if (ignored.contains(implicit) && !marked || known.contains(implicit)
                        || explicit != null && known.contains(explicit)) {
                    continue;
                }
                String written = explicit != null ? explicit : implicit;
                return "its " + (marked ? "@JsonProperty method '" : "getter '") + member.getSimpleName()
                        + "()' writes the property '" + written + "', which a receiver does not know (no field, setter"
                        + " or creator parameter of that name: Jackson names getURL() 'url'), so it would reject the"
                        + " message; mark the method @JsonIgnore, or give it a field or setter of that name";
            }
        }
        return null;
    }

    /** The setters of the classes of {@code hierarchy}: each parameter is a part a receiver decodes. */
    static void setters(List<TypeElement> hierarchy, List<String> names, List<ExecutableElement> setters) {
        for (TypeElement c : hierarchy) {
            for (Element member : c.getEnclosedElements()) {
                if (!member.getModifiers().contains(Modifier.STATIC) && isSetter(member)) {
                    names.add("its setter '" + member.getSimpleName() + "'");
                    setters.add((ExecutableElement) member);
                }
            }
        }
    }

    /**
     * Whether {@code member} is a getter Jackson writes: no parameters, a result, and either marked
     * {@code @JsonProperty} or public and named {@code getX} ({@code getClass} aside) or {@code isX} with a
     * {@code boolean} or {@code Boolean} result.
     */
    private static boolean isGetter(Element member) {
        if (member.getKind() != ElementKind.METHOD) {
            return false;
        }
        ExecutableElement method = (ExecutableElement) member;
        if (!method.getParameters().isEmpty() || method.getReturnType().getKind() == TypeKind.VOID) {
            return false;
        }
        if (annotation(method, JSON_PROPERTY) != null) {
            return true;
        }
        String name = method.getSimpleName().toString();
        return method.getModifiers().contains(Modifier.PUBLIC)
                && (name.startsWith("get") && name.length() > 3 && !name.equals("getClass")
                        || name.startsWith("is") && name.length() > 2 && booleanResult(method.getReturnType()));
    }

    /** Whether {@code member} is a setter: {@code setX(one)}, public, or any one-parameter method marked {@code @JsonProperty}. */
    private static boolean isSetter(Element member) {
        if (member.getKind() != ElementKind.METHOD || ((ExecutableElement) member).getParameters().size() != 1) {
            return false;
        }
        String name = member.getSimpleName().toString();
        return annotation(member, JSON_PROPERTY) != null
                || member.getModifiers().contains(Modifier.PUBLIC) && name.startsWith("set") && name.length() > 3;
    }

    /** The property name Jackson gives {@code member} before any {@code @JsonProperty} rename, or null if it is no accessor. */
    private static String implicitName(Element member) {
        String name = member.getSimpleName().toString();
        if (member.getKind() == ElementKind.FIELD) {
            return name;
        }
        if (member.getKind() != ElementKind.METHOD) {
            return null;
        }
        if (name.startsWith("get") && name.length() > 3 || name.startsWith("set") && name.length() > 3) {
            return mangle(name.substring(3));
        }
        if (name.startsWith("is") && name.length() > 2 && ((ExecutableElement) member).getParameters().isEmpty()
                && booleanResult(((ExecutableElement) member).getReturnType())) {
            return mangle(name.substring(2));
        }
        return name;
    }

    /** Jackson's legacy rule: the leading capitals lowered ({@code URL} → {@code url}, {@code URLPath} → {@code urlpath}). */
    static String mangle(String base) {
        StringBuilder out = new StringBuilder(base.length());
        int i = 0;
        while (i < base.length()) {
            char c = base.charAt(i);
            char lower = Character.toLowerCase(c);
            if (c == lower) {
                break;
            }
            out.append(lower);
            i++;
        }
        return out.append(base, i, base.length()).toString();
    }

    private static String explicitName(Element member) {
        AnnotationMirror property = annotation(member, JSON_PROPERTY);
        Object value = property == null ? null : value(property, "value");
        return value instanceof String name && !name.isEmpty() ? name : null;
    }

    private static void addExplicit(Element member, Set<String> known) {
        String explicit = explicitName(member);
        if (explicit != null) {
            known.add(explicit);
        }
    }

    private static boolean booleanResult(TypeMirror type) {
        return type.getKind() == TypeKind.BOOLEAN || type instanceof DeclaredType declared
                && ((TypeElement) declared.asElement()).getQualifiedName().contentEquals("java.lang.Boolean");
    }

    private static boolean collectionOrMap(TypeMirror type) {
        return type instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                && MessageDecodability.collectionOrMap(element);
    }

    private static AnnotationMirror annotation(Element element, String name) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(name)) {
                return mirror;
            }
        }
        return null;
    }

    private static Object value(AnnotationMirror mirror, String name) {
        for (var entry : mirror.getElementValues().entrySet()) {
            if (entry.getKey().getSimpleName().contentEquals(name)) {
                return entry.getValue().getValue();
            }
        }
        return null;
    }
}
