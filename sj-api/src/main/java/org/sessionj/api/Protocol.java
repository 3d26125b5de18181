package org.sessionj.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a session type on an interface, in SJ notation:
 *
 * <pre>{@code
 * @Protocol("cbegin.!<int>.![!<double[]>.?(double[])]*")
 * interface MasterToWorker {}
 *
 * @Protocol("^(MasterToWorker)")
 * interface WorkerToMaster {}
 * }</pre>
 *
 * The annotated interface is the protocol's name: other protocols refer to it as {@code @(Name)}
 * or {@code ^(Name)}, and session sockets are created from its class literal. Java types inside
 * the notation resolve like names in the interface's own source file.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Protocol {
    /** The session type, in SJ notation. */
    String value();
}
