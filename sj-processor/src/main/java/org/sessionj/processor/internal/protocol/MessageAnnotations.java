package org.sessionj.processor.internal.protocol;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import org.sessionj.types.internal.RefusedJacksonAnnotations;

/**
 * The Jackson annotations on a class of the program that make a value not arrive as it was sent, which SJ018
 * refuses as the runtime's load check does (adv20 A5; sj-runtime's MessageAnnotations decides the same from the
 * class files):
 * <ul>
 * <li>annotations whose effect neither check follows ({@code @JsonSerialize}, {@code @JsonDeserialize}: the
 *     program's own code writes or reads the value; {@code @JsonRawValue}: Smile has no raw values, every send
 *     failed; {@code @JsonGetter}, {@code @JsonSetter}: write them as {@code @JsonProperty}, which both read;
 *     {@code @JsonUnwrapped}; {@code @JsonAnyGetter} without a {@code @JsonAnySetter}: it writes properties no
 *     receiver knows);</li>
 * <li>{@code @JsonIgnore} on a getter or setter of a field that travels: Jackson drops the whole property, the
 *     field included, so the field arrived at its default, silently;</li>
 * <li>two fields that travel under one property name ({@code @JsonProperty("b") int a; int b;}): one value was
 *     lost, silently;</li>
 * <li>{@code @JsonIgnoreProperties({"a"})} on a class naming a field that travels (the field arrived at its
 *     default, as under an accessor's {@code @JsonIgnore}), and {@code @JsonIgnoreProperties} with names on a member
 *     (the names are its value's properties); {@code @JsonIgnoreProperties(ignoreUnknown = true)} alone is harmless;</li>
 * <li>any Jackson annotation outside sj-api's {@code RefusedJacksonAnnotations.MODELLED}, the annotations whose effect
 *     both checks model, and a bundle of them ({@code @JacksonAnnotationsInside}, kept at run time): adv21 B4-B6,
 *     {@code @JsonInclude} kept a field's default for a null, a {@code @JsonFormat} pattern lost the time, a bundled
 *     {@code @JsonIgnore} dropped a field.</li>
 * </ul>
 */
final class MessageAnnotations {
    private static final String PREFIX = RefusedJacksonAnnotations.PREFIX;
    private static final String JSON_PROPERTY = PREFIX + "annotation.JsonProperty";
    private static final String JSON_IGNORE = PREFIX + "annotation.JsonIgnore";

    private MessageAnnotations() {
    }

    /**
     * Why the Jackson annotations of {@code hierarchy} ({@code type} and its superclasses of the program, nearest
     * first) keep a value from arriving as sent, or null. {@code asFields}: the class travels as its fields.
     */
    static String problem(List<TypeElement> hierarchy, boolean asFields) {
        boolean anyGetter = false;
        boolean anySetter = false;
        for (TypeElement c : hierarchy) {
            String refused = refused(c, "it");
            if (refused != null) {
                return refused;
            }
            for (Element member : c.getEnclosedElements()) {
                if (member instanceof TypeElement) {
                    continue; // a nested class is checked where it travels (the runtime reads no nested class here)
                }
                refused = refused(member, describe(member));
                if (refused != null) {
                    return refused;
                }
                if (member instanceof ExecutableElement executable) {
                    for (VariableElement parameter : executable.getParameters()) {
                        refused = refused(parameter, "the parameter '" + parameter.getSimpleName() + "' of "
                                + describe(member));
                        if (refused != null) {
                            return refused;
                        }
                    }
                }
                anyGetter |= MessageCreators.annotated(member, PREFIX + "annotation.JsonAnyGetter");
                anySetter |= MessageCreators.annotated(member, PREFIX + "annotation.JsonAnySetter");
            }
            anySetter |= ignoresUnknown(c);
        }
        String ignored = ignoredByName(hierarchy);
        if (ignored != null) {
            return ignored;
        }
        if (anyGetter && !anySetter) {
            return "its @JsonAnyGetter writes properties no receiver knows (it has no @JsonAnySetter to read them, and "
                    + "no @JsonIgnoreProperties(ignoreUnknown = true)), so every receive would fail; add a "
                    + "@JsonAnySetter, or send the map as a field";
        }
        return asFields ? fields(hierarchy) : null;
    }

    /**
     * A field that travels but that an accessor's {@code @JsonIgnore} drops, or two that travel under one name.
     */
    private static String fields(List<TypeElement> hierarchy) {
        Map<String, Element> byName = new HashMap<>();
        for (TypeElement c : hierarchy) {
            for (Element member : c.getEnclosedElements()) {
                if (member.getKind() != ElementKind.FIELD || member.getModifiers().contains(Modifier.STATIC)
                        || member.getModifiers().contains(Modifier.TRANSIENT)
                        || MessageCreators.annotated(member, JSON_IGNORE)) {
                    continue;
                }
                String name = explicitName(member);
                Element other = byName.putIfAbsent(name == null ? member.getSimpleName().toString() : name, member);
                if (other != null && other != member && (name != null || explicitName(other) != null)) {
                    return "its fields '" + other.getSimpleName() + "' and '" + member.getSimpleName() + "' travel "
                            + "under one property name, '" + (name == null ? member.getSimpleName() : name) + "' "
                            + "(@JsonProperty), so one value would not arrive; give each its own name";
                }
                // a field marked @JsonProperty is explicit: Jackson drops the ignored accessor only
                Element ignoring = MessageCreators.annotated(member, JSON_PROPERTY) ? null
                        : ignoringAccessor(hierarchy, member.getSimpleName().toString());
                if (ignoring != null) {
                    return "its field '" + member.getSimpleName() + "' would not arrive: the @JsonIgnore on '"
                            + ignoring.getSimpleName() + "()' drops the whole property '" + member.getSimpleName()
                            + "', the field too; mark the field @JsonIgnore or transient if it is not part of the "
                            + "message, or move the @JsonIgnore off the accessor";
                }
            }
        }
        return null;
    }

    /** A getter or setter of the property {@code name} marked {@code @JsonIgnore}, none of it marked {@code @JsonProperty}. */
    private static Element ignoringAccessor(List<TypeElement> hierarchy, String name) {
        Element ignoring = null;
        for (TypeElement c : hierarchy) {
            for (Element member : c.getEnclosedElements()) {
                if (member.getKind() != ElementKind.METHOD || member.getModifiers().contains(Modifier.STATIC)
                        || !name.equals(accessorName((ExecutableElement) member))) {
                    continue;
                }
                if (MessageCreators.annotated(member, JSON_PROPERTY)) {
                    return null; // an explicit accessor keeps the property (Jackson drops the ignored one only)
                }
                if (MessageCreators.annotated(member, JSON_IGNORE)) {
                    ignoring = member;
                }
            }
        }
        return ignoring;
    }

    /** The property a getter ({@code getX}, {@code isX}) or setter ({@code setX(one)}) is of, or null. */
    private static String accessorName(ExecutableElement method) {
        String name = method.getSimpleName().toString();
        int parameters = method.getParameters().size();
        if (parameters == 0 && name.startsWith("get") && name.length() > 3
                || parameters == 1 && name.startsWith("set") && name.length() > 3) {
            return BeanAccessors.mangle(name.substring(3));
        }
        return parameters == 0 && name.startsWith("is") && name.length() > 2 ? BeanAccessors.mangle(name.substring(2))
                : null;
    }

    /**
     * A field that travels (not static, transient nor {@code @JsonIgnore}d) whose property name a class's
     * {@code @JsonIgnoreProperties} lists: Jackson drops it on both ends, and it arrived at its default, silently.
     */
    private static String ignoredByName(List<TypeElement> hierarchy) {
        List<String> names = new java.util.ArrayList<>();
        for (TypeElement c : hierarchy) {
            names.addAll(ignoredNames(c));
        }
        if (names.isEmpty()) {
            return null;
        }
        for (TypeElement c : hierarchy) {
            for (Element member : c.getEnclosedElements()) {
                if (member.getKind() != ElementKind.FIELD || member.getModifiers().contains(Modifier.STATIC)
                        || member.getModifiers().contains(Modifier.TRANSIENT)
                        || MessageCreators.annotated(member, JSON_IGNORE)) {
                    continue;
                }
                String name = explicitName(member);
                if (names.contains(name == null ? member.getSimpleName().toString() : name)) {
                    return RefusedJacksonAnnotations.ignoredByName(member.getSimpleName().toString());
                }
            }
        }
        return null;
    }

    /** The property names {@code element}'s {@code @JsonIgnoreProperties} lists (its {@code value}), or none. */
    private static List<String> ignoredNames(Element element) {
        List<String> names = new java.util.ArrayList<>();
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (!((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName()
                    .contentEquals(RefusedJacksonAnnotations.IGNORE_PROPERTIES)) {
                continue;
            }
            for (var entry : mirror.getElementValues().entrySet()) {
                if (entry.getKey().getSimpleName().contentEquals("value")
                        && entry.getValue().getValue() instanceof List<?> values) {
                    for (Object value : values) {
                        if (value instanceof AnnotationValue named && named.getValue() instanceof String name) {
                            names.add(name);
                        }
                    }
                }
            }
        }
        return names;
    }

    private static String refused(Element element, String what) {
        if (!(element instanceof TypeElement) && !ignoredNames(element).isEmpty()) {
            return RefusedJacksonAnnotations.ignoresPropertiesOfItsValue(what);
        }
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            TypeElement annotation = (TypeElement) mirror.getAnnotationType().asElement();
            String name = annotation.getQualifiedName().toString();
            String why = RefusedJacksonAnnotations.why(name, bundle(annotation));
            if (why != null) {
                return what + " is @" + annotation.getSimpleName() + ": " + why + " (adv20 A5, adv21 B4-B6)";
            }
        }
        return null;
    }

    /**
     * Whether {@code annotation} bundles Jackson annotations: meta-annotated {@code @JacksonAnnotationsInside} and
     * kept at run time (Jackson, and the runtime's load check, see no other).
     */
    private static boolean bundle(TypeElement annotation) {
        if (!MessageCreators.annotated(annotation, RefusedJacksonAnnotations.BUNDLE)) {
            return false;
        }
        java.lang.annotation.Retention retention = annotation.getAnnotation(java.lang.annotation.Retention.class);
        return retention != null && retention.value() == java.lang.annotation.RetentionPolicy.RUNTIME;
    }

    private static String describe(Element member) {
        return switch (member.getKind()) {
            case FIELD -> "its field '" + member.getSimpleName() + "'";
            case RECORD_COMPONENT -> "its component '" + member.getSimpleName() + "'";
            case CONSTRUCTOR -> "its constructor";
            default -> "its member '" + member.getSimpleName() + "'";
        };
    }

    private static String explicitName(Element member) {
        for (AnnotationMirror mirror : member.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(JSON_PROPERTY)) {
                for (var entry : mirror.getElementValues().entrySet()) {
                    if (entry.getKey().getSimpleName().contentEquals("value")
                            && entry.getValue().getValue() instanceof String name && !name.isEmpty()) {
                        return name;
                    }
                }
            }
        }
        return null;
    }

    private static boolean ignoresUnknown(TypeElement type) {
        for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName()
                    .contentEquals(PREFIX + "annotation.JsonIgnoreProperties")) {
                for (var entry : mirror.getElementValues().entrySet()) {
                    AnnotationValue value = entry.getValue();
                    if (entry.getKey().getSimpleName().contentEquals("ignoreUnknown") && Boolean.TRUE.equals(value.getValue())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
