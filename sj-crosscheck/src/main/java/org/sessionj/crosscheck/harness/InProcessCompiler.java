package org.sessionj.crosscheck.harness;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.processing.Processor;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Compiles sources held in memory with javac in this JVM (javax.tools), optionally with a processor
 * instance, and sorts the diagnostics by source file.
 *
 * <p>javac writes no class file once any error was reported, so programs the checker rejects are
 * compiled twice: once without the processor for their class files ({@link Mode#CLASSES}), once with
 * it for its verdict ({@link Mode#CHECK}, which stops after flow analysis, where the checker runs).
 */
public final class InProcessCompiler {
    private static final Pattern CODE = Pattern.compile("^\\[(SJ\\d+)]");

    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final String classPath;

    /** A compiler whose class path is {@code classPath} (the generated code's dependencies). */
    public InProcessCompiler(String classPath) {
        this.classPath = classPath;
    }

    /** A compiler with this JVM's class path. */
    public static InProcessCompiler withJvmClassPath() {
        return new InProcessCompiler(System.getProperty("java.class.path"));
    }

    /** A source file: the binary name of its top-level class and its text. */
    public record Source(String className, String text) {
    }

    /**
     * A diagnostic: its kind, its processor code ({@code SJ012}) or null for javac's own, line, message.
     */
    public record Diag(Diagnostic.Kind kind, String code, long line, String message) {
        public boolean isError() {
            return kind == Diagnostic.Kind.ERROR;
        }

        @Override
        public String toString() {
            return kind + " line " + line + ": " + message;
        }
    }

    /**
     * The outcome: diagnostics per source class (sources without any are absent), diagnostics with no
     * source, and the processor's crash (a stack trace) if it threw.
     */
    public record Result(Map<String, List<Diag>> byClass, List<Diag> unattributed, String crash) {
        public List<Diag> of(String className) {
            return byClass.getOrDefault(className, List.of());
        }

        /** Whether a diagnostic is a javac error that is not the processor's (the source is not valid Java). */
        public boolean javaError(String className) {
            return of(className).stream().anyMatch(d -> d.isError() && d.code() == null);
        }

        /** Whether the processor rejected the class (an error with an SJ code). */
        public boolean rejected(String className) {
            return of(className).stream().anyMatch(d -> d.isError() && d.code() != null);
        }
    }

    /** What a compilation is for. */
    public enum Mode {
        /** Class files, without annotation processing. */
        CLASSES,
        /** The processor's verdict: with the processor, no class files (javac stops after flow analysis). */
        CHECK,
        /** An ordinary compilation with the processor, class files included. */
        FULL
    }

    /**
     * Compiles {@code sources}; class files go to {@code classes}.
     *
     * @param processor a fresh processor instance (javac initialises it; not for {@link Mode#CLASSES})
     */
    public Result compile(List<Source> sources, Path classes, Mode mode, Processor processor) {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<String> options = new ArrayList<>(List.of("--release", "21", "-cp", classPath, "-implicit:none",
                "-Xlint:none", "-nowarn"));
        if (mode == Mode.CLASSES) {
            options.add("-proc:none");
            processor = null;
        }
        if (mode == Mode.CHECK) {
            options.add("-XDshould-stop.ifNoError=FLOW");
            options.add("-XDshould-stop.ifError=FLOW");
        }
        List<JavaFileObject> files = new ArrayList<>();
        for (Source source : sources) {
            files.add(new InMemorySource(source));
        }
        String crash = null;
        try (StandardJavaFileManager manager = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            manager.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(classes));
            JavaCompiler.CompilationTask task = javac.getTask(null, manager, diagnostics, options, null, files);
            if (processor != null) {
                task.setProcessors(List.of(processor));
            }
            task.call();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (RuntimeException | StackOverflowError e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            crash = trace.toString();
        }
        Map<String, List<Diag>> byClass = new LinkedHashMap<>();
        List<Diag> unattributed = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            String message = d.getMessage(Locale.ROOT);
            Matcher code = CODE.matcher(message);
            Diag diag = new Diag(d.getKind(), code.find() ? code.group(1) : null, d.getLineNumber(), message);
            if (d.getSource() instanceof InMemorySource source) {
                byClass.computeIfAbsent(source.className, k -> new ArrayList<>()).add(diag);
            } else {
                unattributed.add(diag);
            }
            if (crash == null && message.contains("threw an uncaught exception")) {
                crash = message;
            }
        }
        return new Result(byClass, unattributed, crash);
    }

    private static final class InMemorySource extends SimpleJavaFileObject {
        private final String className;
        private final String text;

        InMemorySource(Source source) {
            super(URI.create("string:///" + source.className().replace('.', '/') + Kind.SOURCE.extension),
                    Kind.SOURCE);
            this.className = source.className();
            this.text = source.text();
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }
}
