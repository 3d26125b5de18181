package org.sessionj.runtime.internal.wire;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.HashMap;
import java.util.Map;
import org.sessionj.types.internal.JdkMessageTypes;
import org.sessionj.types.internal.RefusedJacksonAnnotations;

/**
 * The Jackson annotations on a class of the program that make a value not arrive as it was sent (adv20 A5),
 * read from the class files as the processor's SJ018 reads them from the source (sj-processor's
 * MessageAnnotations: the same rules, the same words), so both refuse the same classes:
 * <ul>
 * <li>{@code @JsonSerialize}, {@code @JsonDeserialize} (the program's code writes or reads the value),
 *     {@code @JsonRawValue} (Smile has no raw values: every send failed), {@code @JsonGetter},
 *     {@code @JsonSetter} (write them as {@code @JsonProperty}), {@code @JsonUnwrapped}, and a
 *     {@code @JsonAnyGetter} with no {@code @JsonAnySetter} (every receive failed: "Unrecognized field");</li>
 * <li>{@code @JsonIgnore} on a getter or setter of a field that travels: the whole property is dropped, and
 *     the field arrived at its default, silently;</li>
 * <li>two fields that travel under one property name (a {@code @JsonProperty} rename): one value was lost;</li>
 * <li>{@code @JsonIgnoreProperties} on a class naming a field that travels, or with names on a member;</li>
 * <li>any Jackson annotation outside sj-api's {@code RefusedJacksonAnnotations.MODELLED}, and a bundle of them
 *     ({@code @JacksonAnnotationsInside}): adv21 B4-B6, as SJ018 has it.</li>
 * </ul>
 */
final class MessageAnnotations {
    private static final String PREFIX = RefusedJacksonAnnotations.PREFIX;

    private MessageAnnotations() {
    }

    /**
     * Why the Jackson annotations of {@code type} and its superclasses of the program keep a value from arriving
     * as sent, or null. {@code asFields}: the class travels as its fields ({@link SealedTypes#ownState}).
     */
    static String problem(Class<?> type, boolean asFields) {
        boolean anyGetter = false;
        boolean anySetter = false;
        for (Class<?> c = type; c != null && !JdkMessageTypes.jdk(c.getName()); c = c.getSuperclass()) {
            String refused = refused(c, "it");
            if (refused != null) {
                return refused;
            }
            for (Field field : c.getDeclaredFields()) {
                refused = field.isSynthetic() ? null : refused(field, "its field '" + field.getName() + "'");
                if (refused != null) {
                    return refused;
                }
                anySetter |= named(field, "annotation.JsonAnySetter");
            }
            if (c.isRecord()) {
                for (java.lang.reflect.RecordComponent component : c.getRecordComponents()) {
                    refused = refused(component, "its component '" + component.getName() + "'");
                    if (refused != null) {
                        return refused;
                    }
                }
            }
            for (Executable executable : executables(c)) {
                if (executable.isSynthetic()) {
                    continue;
                }
                String what = executable instanceof Constructor<?> ? "its constructor"
                        : "its member '" + executable.getName() + "'";
                refused = refused(executable, what);
                for (Parameter parameter : executable.getParameters()) {
                    refused = refused != null ? refused : refused(parameter, "the parameter '" + parameter.getName()
                            + "' of " + what);
                }
                if (refused != null) {
                    return refused;
                }
                anyGetter |= named(executable, "annotation.JsonAnyGetter");
                anySetter |= named(executable, "annotation.JsonAnySetter");
            }
            com.fasterxml.jackson.annotation.JsonIgnoreProperties ignoring =
                    c.getAnnotation(com.fasterxml.jackson.annotation.JsonIgnoreProperties.class);
            anySetter |= ignoring != null && ignoring.ignoreUnknown();
        }
        String ignored = ignoredByName(type);
        if (ignored == null && (asFields || type.isRecord())) {
            ignored = ignoredType(type);
        }
        if (ignored != null) {
            return ignored;
        }
        if (anyGetter && !anySetter) {
            return "its @JsonAnyGetter writes properties no receiver knows (it has no @JsonAnySetter to read them, and "
                    + "no @JsonIgnoreProperties(ignoreUnknown = true)), so every receive would fail; add a "
                    + "@JsonAnySetter, or send the map as a field";
        }
        return asFields ? fields(type) : null;
    }

    private static Executable[] executables(Class<?> c) {
        Method[] methods = c.getDeclaredMethods();
        Constructor<?>[] constructors = c.getDeclaredConstructors();
        Executable[] all = new Executable[methods.length + constructors.length];
        System.arraycopy(methods, 0, all, 0, methods.length);
        System.arraycopy(constructors, 0, all, methods.length, constructors.length);
        return all;
    }

    /** A field that travels but that an accessor's {@code @JsonIgnore} drops, or two that travel under one name. */
    private static String fields(Class<?> type) {
        Map<String, Field> byName = new HashMap<>();
        for (Class<?> c = type; c != null && !JdkMessageTypes.jdk(c.getName()); c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic()
                        || field.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonIgnore.class)) {
                    continue;
                }
                String name = explicitName(field);
                Field other = byName.putIfAbsent(name == null ? field.getName() : name, field);
                if (other != null && (name != null || explicitName(other) != null)) {
                    return "its fields '" + other.getName() + "' and '" + field.getName() + "' travel under one "
                            + "property name, '" + (name == null ? field.getName() : name) + "' (@JsonProperty), so "
                            + "one value would not arrive; give each its own name";
                }
                // a field marked @JsonProperty is explicit: Jackson drops the ignored accessor only
                Method ignoring = field.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonProperty.class) ? null
                        : ignoringAccessor(type, field.getName());
                if (ignoring != null) {
                    return "its field '" + field.getName() + "' would not arrive: the @JsonIgnore on '"
                            + ignoring.getName() + "()' drops the whole property '" + field.getName() + "', the field "
                            + "too; mark the field @JsonIgnore or transient if it is not part of the message, or move "
                            + "the @JsonIgnore off the accessor";
                }
            }
        }
        return null;
    }

    private static Method ignoringAccessor(Class<?> type, String name) {
        Method ignoring = null;
        for (Class<?> c = type; c != null && !JdkMessageTypes.jdk(c.getName()); c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (Modifier.isStatic(method.getModifiers()) || method.isSynthetic()
                        || !name.equals(accessorName(method))) {
                    continue;
                }
                if (method.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonProperty.class)) {
                    return null; // an explicit accessor keeps the property (Jackson drops the ignored one only)
                }
                if (method.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonIgnore.class)) {
                    ignoring = method;
                }
            }
        }
        return ignoring;
    }

    private static String accessorName(Method method) {
        String name = method.getName();
        int parameters = method.getParameterCount();
        if (parameters == 0 && name.startsWith("get") && name.length() > 3
                || parameters == 1 && name.startsWith("set") && name.length() > 3) {
            return mangle(name.substring(3));
        }
        return parameters == 0 && name.startsWith("is") && name.length() > 2 ? mangle(name.substring(2)) : null;
    }

    /** Jackson's legacy rule, as the processor's BeanAccessors.mangle: the leading capitals lowered. */
    private static String mangle(String base) {
        int i = 0;
        while (i < base.length() && Character.isUpperCase(base.charAt(i))) {
            i++;
        }
        return base.substring(0, i).toLowerCase(java.util.Locale.ROOT) + base.substring(i);
    }

    /**
     * A field that travels (not static, transient nor {@code @JsonIgnore}d) whose property name a class's
     * {@code @JsonIgnoreProperties} lists: Jackson drops it on both ends, and it arrived at its default, silently.
     */
    private static String ignoredByName(Class<?> type) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (Class<?> c = type; c != null && !JdkMessageTypes.jdk(c.getName()); c = c.getSuperclass()) {
            names.addAll(java.util.Arrays.asList(ignoredNames(c)));
        }
        if (names.isEmpty()) {
            return null;
        }
        for (Class<?> c = type; c != null && !JdkMessageTypes.jdk(c.getName()); c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic()
                        || field.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonIgnore.class)) {
                    continue;
                }
                String name = explicitName(field);
                if (names.contains(name == null ? field.getName() : name)) {
                    return RefusedJacksonAnnotations.ignoredByName(field.getName());
                }
            }
        }
        return null;
    }

    /**
     * A field that travels whose class (or a superclass of the program) is {@code @JsonIgnoreType}: Jackson drops the
     * property, so the codec's properties, which the load check walks, never show its type, and it arrived null
     * (adv21 B4 J04); SJ018 reads the field's class where it descends, and refuses it there.
     */
    private static String ignoredType(Class<?> type) {
        for (Class<?> c = type; c != null && !JdkMessageTypes.jdk(c.getName()); c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic()
                        || field.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonIgnore.class)) {
                    continue;
                }
                for (Class<?> t = field.getType(); t != null && !t.isPrimitive() && !t.isArray()
                        && !JdkMessageTypes.jdk(t.getName()); t = t.getSuperclass()) {
                    com.fasterxml.jackson.annotation.JsonIgnoreType ignoring =
                            t.getDeclaredAnnotation(com.fasterxml.jackson.annotation.JsonIgnoreType.class);
                    if (ignoring != null && ignoring.value()) {
                        return "its field '" + field.getName() + "' has a type no peer can decode, " + t.getName()
                                + ": it is @JsonIgnoreType: " + RefusedJacksonAnnotations.why(PREFIX
                                + "annotation.JsonIgnoreType", false) + " (the property was dropped: it arrived null)";
                    }
                }
            }
        }
        return null;
    }

    /** The property names {@code element}'s own {@code @JsonIgnoreProperties} lists, or none. */
    private static String[] ignoredNames(AnnotatedElement element) {
        com.fasterxml.jackson.annotation.JsonIgnoreProperties ignoring =
                element.getDeclaredAnnotation(com.fasterxml.jackson.annotation.JsonIgnoreProperties.class);
        return ignoring == null ? new String[0] : ignoring.value();
    }

    private static String refused(AnnotatedElement element, String what) {
        if (!(element instanceof Class<?>) && ignoredNames(element).length > 0) {
            return RefusedJacksonAnnotations.ignoresPropertiesOfItsValue(what);
        }
        for (Annotation annotation : element.getDeclaredAnnotations()) {
            String name = annotation.annotationType().getName().replace('$', '.');
            boolean bundle = annotation.annotationType().isAnnotationPresent(
                    com.fasterxml.jackson.annotation.JacksonAnnotationsInside.class);
            String why = RefusedJacksonAnnotations.why(name, bundle);
            if (why != null) {
                return what + " is @" + annotation.annotationType().getSimpleName() + ": " + why
                        + " (adv20 A5, adv21 B4-B6)";
            }
        }
        return null;
    }

    private static boolean named(AnnotatedElement element, String annotation) {
        for (Annotation present : element.getDeclaredAnnotations()) {
            if (present.annotationType().getName().equals(PREFIX + annotation)) {
                return true;
            }
        }
        return false;
    }

    private static String explicitName(Field field) {
        com.fasterxml.jackson.annotation.JsonProperty property =
                field.getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
        return property == null || property.value().isEmpty() ? null : property.value();
    }
}
