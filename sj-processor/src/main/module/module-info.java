/**
 * SJ for Java's annotation processor: validates {@code @Protocol} interfaces, writes their descriptors and
 * checks session sockets and {@code @NoAlias} values in javac's trees.
 *
 * <p>A real module so that javac can load it from {@code --processor-module-path} (what a build with
 * {@code module-info.java} may use): there javac resolves only the processor's module and what it
 * requires, and sj-api, a named module, is found only when required. On {@code -processorpath} (Maven's
 * {@code annotationProcessorPaths} for a project without a module descriptor) this descriptor is not read.
 * JavaParser (an automatic module) reads the full Java type grammar of message types for sj-api.
 */
@SuppressWarnings("requires-automatic")
module org.sessionj.processor {
    requires java.compiler;
    requires jdk.compiler;
    requires org.sessionj.api;
    requires com.github.javaparser.core;
    // @AutoService (class retention) on the processor class: needed to read that class, never at run time.
    requires static com.google.auto.service;

    provides javax.annotation.processing.Processor with org.sessionj.processor.SessionProcessor;
}
