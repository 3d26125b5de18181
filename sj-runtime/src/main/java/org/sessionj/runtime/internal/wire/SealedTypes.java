package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.AnnotatedClass;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
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
 */
final class SealedTypes extends JacksonAnnotationIntrospector {
    private static final long serialVersionUID = 1L;

    private static final JsonTypeInfo.Value BY_CLASS_NAME = JsonTypeInfo.Value.construct(JsonTypeInfo.Id.NAME,
            JsonTypeInfo.As.WRAPPER_ARRAY, null, null, false, null, null);

    /** Whether {@code type} is a sealed type of the program (the JDK's sealed types have serializers of their own). */
    static boolean closedHierarchy(Class<?> type) {
        return type.isSealed() && !type.getName().startsWith("java.");
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
