package org.sessionj.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Unique ownership: the annotated variable holds the only reference to its value. Assigning it,
 * passing it to a method or to {@link SJSocket#pass}, returning it, or capturing it moves the value
 * out, and the variable may not be read again until it is reassigned. Checked at compile time by
 * sj-processor. Session sockets are implicitly {@code @NoAlias}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.FIELD, ElementType.LOCAL_VARIABLE, ElementType.PARAMETER, ElementType.METHOD,
        ElementType.TYPE_USE})
public @interface NoAlias {
}
