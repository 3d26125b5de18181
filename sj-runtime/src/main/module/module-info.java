/**
 * SJ for Java's session runtime: initiation, the monitor, the wire encoding and the transport manager.
 *
 * <p>A real module, so that on the module path it brings what it needs (Jackson, Netty's buffers, JCTools:
 * named modules that an automatic module would not make the JVM resolve) and finds the transports through
 * {@code uses}. Open: Jackson and the record encoding read the runtime's own message classes reflectively.
 * A program's message classes must be open to it and to Jackson in turn (README, "Using SJ with
 * module-info.java").
 */
// AutoService (an automatic module) names the providers in META-INF/services as well; never needed at run time.
@SuppressWarnings("requires-automatic")
open module org.sessionj.runtime {
    // @AutoService (class retention) on the provider classes: needed to read those classes, never at run time.
    requires static com.google.auto.service;
    requires transitive org.sessionj.api;
    requires transitive com.fasterxml.jackson.databind;
    requires transitive io.netty.buffer;
    // UnfinishedFrames' default budget reads Netty's direct-memory limit (PlatformDependent).
    requires io.netty.common;
    requires com.fasterxml.jackson.annotation;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.dataformat.smile;
    requires com.fasterxml.jackson.datatype.jdk8;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires org.jctools.core;
    // java.sql.Timestamp's encoder (JdkValues): only when the program's layer has java.sql, as Jackson's own.
    requires static java.sql;

    exports org.sessionj.runtime;
    exports org.sessionj.runtime.spi;
    exports org.sessionj.runtime.spi.support;
    // For the transports (separate jars) only; not API.
    exports org.sessionj.runtime.internal.monitor;
    exports org.sessionj.runtime.internal.protocol;
    exports org.sessionj.runtime.internal.session;
    exports org.sessionj.runtime.internal.transport;
    exports org.sessionj.runtime.internal.wire;

    uses org.sessionj.runtime.spi.Transport;
    provides org.sessionj.api.spi.SessionRuntimeProvider with org.sessionj.runtime.SJRuntimeProvider;
}
