/**
 * SJ for Java's API: the annotations ({@code @Protocol}, {@code @Session}, {@code @NoAlias}), the session
 * types (parser, printer, duality, subtyping) and the interfaces a program calls ({@code SJService},
 * {@code SJSocket}, …). A real module, so that an application's {@code requires org.sessionj.api;} is no
 * {@code requires-automatic} lint warning.
 *
 * <p>Every package is exported: {@code org.sessionj.types.internal} and {@code org.sessionj.api.spi} are
 * for sj-runtime and sj-processor, which are automatic modules (qualified exports to them would name
 * modules javac does not see when it compiles this one). JavaParser is optional ({@code requires static}):
 * only the processor and the command line read the full Java type grammar, and they bring it.
 */
// JavaParser is an automatic module (its jar names itself in its manifest): nothing to warn a user about,
// since the requirement is static and the module is never needed at run time.
@SuppressWarnings("requires-automatic")
module org.sessionj.api {
    requires static com.github.javaparser.core;

    exports org.sessionj.api;
    exports org.sessionj.api.spi;
    exports org.sessionj.types;
    exports org.sessionj.types.internal;

    // The runtime is found by its class name first, then through the service loader (SessionRuntimeProvider).
    uses org.sessionj.api.spi.SessionRuntimeProvider;
}
