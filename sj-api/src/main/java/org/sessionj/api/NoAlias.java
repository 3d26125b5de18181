package org.sessionj.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Unique ownership: the annotated local variable, parameter, field or method result holds the only
 * reference to its value. It may only be given a unique value (a new object or array, {@code null}, a
 * received message, a {@code @NoAlias} method result or another {@code @NoAlias} variable, which is
 * moved). Assigning it, passing it to a method or to {@link SJSocket#pass}, returning it, storing it in
 * an array or capturing it moves the value out, and the variable may not be used again until it is
 * reassigned; reading through it ({@code x[i]}, {@code x.f}, {@code x.m()}) does not move it.
 * A method of a field's own class may move the field out ({@code s.pass(f)}) if it refills it before any
 * other code can read it; elsewhere a field is only read through. Array elements are not owned.
 * Checked at compile time by sj-processor (codes SJ040–SJ044, {@code docs/noalias.md}); there is no
 * run-time effect. Session sockets are implicitly {@code @NoAlias}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.FIELD, ElementType.LOCAL_VARIABLE, ElementType.PARAMETER, ElementType.METHOD,
        ElementType.TYPE_USE})
public @interface NoAlias {
}
