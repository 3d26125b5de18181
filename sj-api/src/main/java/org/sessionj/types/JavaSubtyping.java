package org.sessionj.types;

import java.util.Objects;
import org.sessionj.types.internal.ReflectiveSubtyping;

/**
 * The subtype relation on message types that session subtyping consults ({@code !<T>} is
 * covariant in {@code T}, {@code ?(T)} contravariant).
 */
@FunctionalInterface
public interface JavaSubtyping {

    /** Only identical types are related (names compared as written). */
    JavaSubtyping EXACT = Payload.JavaType::equals;

    /** Whether a value of type {@code sub} may be used where {@code sup} is expected. */
    boolean isSubtype(Payload.JavaType sub, Payload.JavaType sup);

    /**
     * Java subtyping over classes loaded (without initialisation) from {@code loader}: class and
     * interface names must be binary names ({@code java.lang.String}, {@code pkg.Outer$Inner}; a
     * simple name is also tried in {@code java.lang}). Primitives are related only to themselves
     * (no widening, no boxing: {@code int} and {@code Integer} are unrelated). Arrays are covariant
     * in reference component types and are subtypes of {@code Object}, {@code Cloneable} and
     * {@code java.io.Serializable}. Type arguments are invariant; a raw supertype accepts any
     * arguments. A name that cannot be loaded is related only to an identical type.
     */
    static JavaSubtyping reflective(ClassLoader loader) {
        return new ReflectiveSubtyping(Objects.requireNonNull(loader, "loader"));
    }
}
