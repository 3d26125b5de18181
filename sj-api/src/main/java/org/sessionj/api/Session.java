package org.sessionj.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a session-method parameter and gives the session type the socket must have when the method
 * is called: {@code void serve(@Session("?(int).!<int>") SJSocket s)}. The method must complete
 * that type (or delegate the socket); the caller's socket is moved into the call.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Session {
    /** The remaining session type, in SJ notation ({@code ""} for a class given by {@link #protocol}). */
    String value() default "";

    /** Alternatively, a {@link Protocol}-annotated interface whose type the socket has. */
    Class<?> protocol() default void.class;
}
