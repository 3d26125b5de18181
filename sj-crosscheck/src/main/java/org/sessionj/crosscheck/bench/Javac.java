package org.sessionj.crosscheck.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.sessionj.processor.SessionProcessor;

/**
 * One javac compilation of source files on disk in this JVM, timed three ways: wall time, CPU time of
 * the compiling thread (javac compiles in the calling thread; robust against other load on a shared
 * machine) and CPU time of the whole process (adds what the JIT compiler and GC threads spend).
 */
final class Javac {
    /** What runs besides javac. */
    enum Setup {
        PROC_NONE("javac -proc:none"),
        NO_OP("javac + empty processor"),
        SJ("javac + sj-processor"),
        /** Another build of sj-processor ({@code --baseline}): an A/B comparison in the same rounds. */
        SJ_BASELINE("javac + sj-processor (baseline)");

        final String label;

        Setup(String label) {
            this.label = label;
        }

        /** The configurations every run compiles (the baseline only when one is given). */
        static List<Setup> standard() {
            return List.of(PROC_NONE, NO_OP, SJ);
        }
    }

    /**
     * One compilation's times, in nanoseconds, and its errors; {@code processorCpu}: the compiling
     * thread's CPU time inside the processor ({@link TimedProcessor}; 0 without one).
     */
    record Sample(long wall, long threadCpu, long processCpu, long processorCpu, List<String> errors) {
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** sj-processor's class path: its own classes, sj-api's and JavaParser's (an optional dependency of sj-api). */
    static final String SJ_PROCESSOR_PATH = String.join(File.pathSeparator, location(SessionProcessor.class),
            location(org.sessionj.types.SessionType.class), location("com.github.javaparser.JavaParser"));
    /** What a baseline build of sj-processor needs besides its own classes: sj-api's and JavaParser's. */
    private static final String DEPENDENCIES_PATH = String.join(File.pathSeparator,
            location(org.sessionj.types.SessionType.class), location("com.github.javaparser.JavaParser"));
    /** The empty processor's class path: this module's classes. */
    static final String NO_OP_PROCESSOR_PATH = location(NoOpProcessor.class);

    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final String classPath;
    private final boolean processorPath;
    /** The processor path of the baseline build, or null. */
    private String baselinePath;

    /**
     * @param processorPath true: processors load from {@code -processorpath} in a fresh class loader per
     *     compilation, as under Maven's {@code annotationProcessorPaths} (the processor's code starts cold
     *     every time); false: one processor instance of this JVM's classes (warm)
     */
    Javac(String classPath, boolean processorPath) {
        this.classPath = classPath;
        this.processorPath = processorPath;
    }

    /**
     * Compiles {@link Setup#SJ_BASELINE} with the processor classes on {@code path} (sj-processor's
     * classes, then sj-api's and JavaParser's as for {@link Setup#SJ}), loaded afresh per compilation.
     */
    void baseline(String path) {
        if (!processorPath) {
            throw new IllegalArgumentException("--baseline needs --processor-path true");
        }
        baselinePath = baselineProcessorPath(path);
    }

    /** The processor path of a baseline build whose sj-processor classes are at {@code path}. */
    static String baselineProcessorPath(String path) {
        return path + File.pathSeparator + DEPENDENCIES_PATH;
    }

    private static String location(String className) {
        try {
            return location(Class.forName(className));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("sj-processor's dependency " + className + " is not on the class path", e);
        }
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot locate the classes of " + type.getName(), e);
        }
    }

    Sample compile(List<Path> files, Path out, Setup setup) throws IOException {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager manager = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            List<String> options = new ArrayList<>(List.of("-d", out.toString(), "-cp", classPath, "--release", "21",
                    "-implicit:none"));
            String processor = switch (setup) {
                case PROC_NONE -> null;
                case NO_OP -> NoOpProcessor.class.getName();
                case SJ, SJ_BASELINE -> SessionProcessor.class.getName();
            };
            if (setup == Setup.SJ_BASELINE && baselinePath == null) {
                throw new IllegalStateException("no baseline build to compile with: give --baseline DIR");
            }
            String path = switch (setup) {
                case SJ -> SJ_PROCESSOR_PATH;
                case SJ_BASELINE -> baselinePath;
                default -> NO_OP_PROCESSOR_PATH;
            };
            if (processor == null) {
                options.add("-proc:none");
            } else if (processorPath) {
                // The processor's own class path, as Maven's annotationProcessorPaths resolve it (javac
                // opens it as under Maven; the processor itself comes from the loader made below).
                options.addAll(List.of("-processorpath", path));
            }
            JavaCompiler.CompilationTask task = javac.getTask(null, manager, diagnostics, options, null,
                    manager.getJavaFileObjectsFromPaths(files));
            TimedProcessor timed = null;
            if (processor != null && !processorPath) {
                timed = new TimedProcessor(setup == Setup.SJ ? new SessionProcessor() : new NoOpProcessor());
                task.setProcessors(List.of(timed));
            }
            long wall = System.nanoTime();
            long thread = THREADS.getCurrentThreadCpuTime();
            long process = OS.getProcessCpuTime();
            IsolatedProcessorLoader loader = null;
            try {
                if (processor != null && processorPath) {
                    // Timed: finding and loading the processor is part of every real compilation.
                    loader = new IsolatedProcessorLoader(path, javac.getClass().getClassLoader());
                    timed = new TimedProcessor(loader.processor(processor));
                    task.setProcessors(List.of(timed));
                }
                task.call();
            } finally {
                if (loader != null) {
                    loader.close();
                }
            }
            long processCpu = OS.getProcessCpuTime() - process;
            long threadCpu = THREADS.getCurrentThreadCpuTime() - thread;
            wall = System.nanoTime() - wall;
            List<String> errors = diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .map(d -> d.getMessage(Locale.ROOT)).toList();
            return new Sample(wall, threadCpu, processCpu, timed == null ? 0 : timed.nanos(), errors);
        }
    }
}
