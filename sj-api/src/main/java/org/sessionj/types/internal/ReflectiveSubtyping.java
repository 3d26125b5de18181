package org.sessionj.types.internal;

import java.util.Optional;
import java.util.Set;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.Payload.JavaType;

/** {@link JavaSubtyping#reflective}: Java's subtyping through {@link Class#isAssignableFrom}. */
public final class ReflectiveSubtyping implements JavaSubtyping {
    private static final Set<String> ARRAY_SUPERTYPES =
            Set.of("java.lang.Object", "Object", "java.lang.Cloneable", "Cloneable", "java.io.Serializable");

    private final ClassLoader loader;

    public ReflectiveSubtyping(ClassLoader loader) {
        this.loader = loader;
    }

    @Override
    public boolean isSubtype(JavaType sub, JavaType sup) {
        if (sub.equals(sup)) {
            return true;
        }
        if (sup.isArray()) {
            return sub.isArray() && arrayComponentsRelated(sub.componentType(), sup.componentType());
        }
        if (sub.isArray()) {
            return sup.typeArguments().isEmpty() && ARRAY_SUPERTYPES.contains(sup.name());
        }
        if (sub.isPrimitive() || sup.isPrimitive()) {
            return false;
        }
        if (!sup.typeArguments().isEmpty()) {
            // Invariant arguments; mapping arguments through a generic supertype needs more than
            // reflection on erasures, so only the same generic class is related.
            return sub.typeArguments().equals(sup.typeArguments()) && sameClass(sub.name(), sup.name());
        }
        Optional<Class<?>> subClass = load(sub.name());
        Optional<Class<?>> supClass = load(sup.name());
        return subClass.isPresent() && supClass.isPresent() && supClass.get().isAssignableFrom(subClass.get());
    }

    private boolean arrayComponentsRelated(JavaType sub, JavaType sup) {
        if (sub.isPrimitive() || sup.isPrimitive()) {
            return sub.equals(sup);
        }
        return isSubtype(sub, sup);
    }

    private boolean sameClass(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        Optional<Class<?>> ca = load(a);
        return ca.isPresent() && ca.equals(load(b));
    }

    private Optional<Class<?>> load(String name) {
        Optional<Class<?>> found = tryLoad(name);
        if (found.isEmpty() && name.indexOf('.') < 0) {
            found = tryLoad("java.lang." + name);
        }
        return found;
    }

    private Optional<Class<?>> tryLoad(String name) {
        try {
            return Optional.of(Class.forName(name, false, loader));
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
    }
}
