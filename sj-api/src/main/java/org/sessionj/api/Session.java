package org.sessionj.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives a session parameter its type, so that sj-processor can check the method on its own.
 * <ul>
 *   <li>On an {@link SJSocket} parameter: the session type the socket has when the method is called,
 *       {@code void serve(@Session("?(int).!<int>") SJSocket s)} or {@code @Session(protocol = P.class)}.
 *       The method must complete exactly that type (or delegate the socket). At a call, the caller's
 *       socket must be at a type that begins with it: the socket is lent to the method for that part
 *       and the caller continues with the rest. Without {@code @Session} a socket parameter cannot
 *       be checked and is reported (SJ010).</li>
 *   <li>On an {@link SJService} or {@link SJServerSocket} parameter: {@code @Session(protocol = P.class)}
 *       names the protocol of the sessions it starts, so {@code request()}/{@code accept()} on it are
 *       checked; only {@code protocol} is meaningful there.</li>
 * </ul>
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
