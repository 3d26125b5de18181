package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.AnnotatedClass;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.introspect.VisibilityChecker;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.jsontype.TypeResolverBuilder;
import com.fasterxml.jackson.databind.jsontype.impl.StdTypeResolverBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Closed-set polymorphism for sealed message types (docs/wire-format.md, "Sealed types"). Where the
 * declared type of a value — the message type itself, an element, a record component or a field — is
 * a sealed class or interface (not the JDK's own), the value is written as a two-element array: the
 * binary name of its class, then the value as that class. The reader takes the name only from the
 * declared type's permitted subclasses (transitively): any other name fails the decoding, so no class
 * is ever looked up by a name from the wire. A user's own {@code @JsonTypeInfo} wins.
 *
 * <p>Also which members of a message class the codec reads and writes ({@link #findAutoDetectVisibility}):
 * a value travels as its state, its fields, whatever their access (adv15 A21).
 */
final class SealedTypes extends JacksonAnnotationIntrospector {
    private static final long serialVersionUID = 1L;

    private static final JsonTypeInfo.Value BY_CLASS_NAME = JsonTypeInfo.Value.construct(JsonTypeInfo.Id.NAME,
            JsonTypeInfo.As.WRAPPER_ARRAY, null, null, false, null, null);

    /** Whether {@code type} is a sealed type of the program (the JDK's sealed types have serializers of their own). */
    static boolean closedHierarchy(Class<?> type) {
        return type.isSealed() && !type.getName().startsWith("java.");
    }

    /**
     * A class of the program travels as its fields, whatever their access, and a record as its fields
     * (its components' values as its canonical constructor stored them), not through its accessors (adv15
     * A21, A22). Jackson's default (public fields and getters) sent a class whose state is in private
     * fields without getters — the newcomer's POJO, a class read through {@code x()}-style accessors —
     * as {@code {}}, arriving with every field at its default, silently; and a record whose accessor is
     * not its field ({@code v() { return v * 2; }}) was rebuilt from what the accessor returned, changed on
     * every hop. Getters still count for a class (a property with a getter and a field is one property);
     * Jackson's own annotations ({@code @JsonAutoDetect}, {@code @JsonIgnore}, {@code transient}) still
     * decide. The JDK's classes keep Jackson's defaults: their private state is the JDK's, and most have
     * encoders of their own.
     */
    @Override
    public VisibilityChecker<?> findAutoDetectVisibility(AnnotatedClass annotated, VisibilityChecker<?> checker) {
        VisibilityChecker<?> own = super.findAutoDetectVisibility(annotated, checker);
        Class<?> type = annotated.getRawType();
        if (!ownState(type)) {
            return own;
        }
        if (type.isRecord()) {
            return own.withFieldVisibility(Visibility.ANY).withGetterVisibility(Visibility.NONE)
                    .withIsGetterVisibility(Visibility.NONE);
        }
        return own.withFieldVisibility(Visibility.ANY);
    }

    /**
     * Whether {@code type} is a class of the program whose fields, all of them, are its state: not the JDK's,
     * and with no JDK class above it but {@code Object} (a JDK superclass's private fields are the JDK's,
     * not open to the codec) and no {@code @JsonAutoDetect} of its own (the program chose).
     */
    static boolean ownState(Class<?> type) {
        if (type.isInterface() || type.isEnum() || type.isArray() || type.isPrimitive()
                || type.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonAutoDetect.class)) {
            return false;
        }
        if (jdk(type)) {
            return false;
        }
        for (Class<?> c = type.getSuperclass(); c != null && c != Object.class && c != Record.class;
                c = c.getSuperclass()) {
            if (jdk(c) || c.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonAutoDetect.class)) {
                return false;
            }
        }
        return true;
    }

    private static boolean jdk(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }

    @Override
    public TypeResolverBuilder<?> findTypeResolver(MapperConfig<?> config, AnnotatedClass annotated, JavaType base) {
        TypeResolverBuilder<?> own = super.findTypeResolver(config, annotated, base);
        if (own != null || !closedHierarchy(base.getRawClass())) {
            return own;
        }
        return new StdTypeResolverBuilder().init(BY_CLASS_NAME, null);
    }

    @Override
    public List<NamedType> findSubtypes(Annotated annotated) {
        List<NamedType> own = super.findSubtypes(annotated);
        Class<?> type = annotated.getRawType();
        if (!closedHierarchy(type)) {
            return own;
        }
        List<NamedType> found = own == null ? new ArrayList<>() : new ArrayList<>(own);
        for (Class<?> permitted : type.getPermittedSubclasses()) {
            found.add(new NamedType(permitted, permitted.getName())); // Jackson asks again for a sealed one
        }
        return found;
    }

    @Override
    public String findTypeName(AnnotatedClass annotated) {
        String own = super.findTypeName(annotated);
        return own == null && inClosedHierarchy(annotated.getRawType()) ? annotated.getRawType().getName() : own;
    }

    /** Whether {@code type} or one of its supertypes is a sealed type of the program. */
    private static boolean inClosedHierarchy(Class<?> type) {
        if (type == null || type == Object.class) {
            return false;
        }
        if (closedHierarchy(type) || inClosedHierarchy(type.getSuperclass())) {
            return true;
        }
        for (Class<?> implemented : type.getInterfaces()) {
            if (inClosedHierarchy(implemented)) {
                return true;
            }
        }
        return false;
    }
}
