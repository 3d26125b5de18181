package org.sessionj.processor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Measures how much the processor adds to javac time: compiles N copies of the paper programs (each
 * copy in its own package) with and without the processor, in one JVM, alternating, after warm-up,
 * and prints the medians of the compiling thread's CPU time. Not a test: run it by hand (see the processor's report for the command).
 *
 * <p>Usage: {@code CompileTimeMeasurement [copies] [rounds] [source root ...]}: the source roots add
 * ordinary (mostly session-free) Java files to the set, for a more realistic mix.
 */
public final class CompileTimeMeasurement {
    private static final List<String> PROGRAMS = List.of("MonteCarloPi", "JacobiFig5", "Master", "NBodyWorker",
            "NBodyRing", "Chat", "Portal", "BinTreeExchange");
    private static final Pattern PUBLIC_CLASS = Pattern.compile("^public\\s+class\\s+(\\w+)", Pattern.MULTILINE);

    private CompileTimeMeasurement() {
    }

    public static void main(String[] args) throws IOException {
        int copies = args.length > 0 ? Integer.parseInt(args[0]) : 25;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Path sources = Files.createTempDirectory("sj-sources");
        List<Path> files = new ArrayList<>();
        long lines = 0;
        for (int copy = 0; copy < copies; copy++) {
            for (String program : PROGRAMS) {
                String pkg = "copy" + copy + "." + program.toLowerCase(Locale.ROOT);
                String text = "package " + pkg + ";\n" + resource(program);
                Matcher name = PUBLIC_CLASS.matcher(text);
                name.find();
                Path dir = sources.resolve(pkg.replace('.', '/'));
                Files.createDirectories(dir);
                Path file = dir.resolve(name.group(1) + ".java");
                Files.writeString(file, text);
                files.add(file);
                lines += text.lines().count();
            }
        }
        for (int i = 2; i < args.length; i++) {
            try (var walk = Files.walk(Path.of(args[i]))) {
                for (Path file : walk.filter(f -> f.toString().endsWith(".java")
                        && !f.getFileName().toString().equals("module-info.java")).toList()) {
                    files.add(file);
                    lines += Files.readAllLines(file).size();
                }
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classPath = System.getProperty("java.class.path");
        System.out.printf(Locale.ROOT, "%d files, %d lines (%d copies of the %d paper programs, %d other roots)%n",
                files.size(), lines, copies, PROGRAMS.size(), Math.max(0, args.length - 2));
        List<Long> without = new ArrayList<>();
        List<Long> noop = new ArrayList<>();
        List<Long> with = new ArrayList<>();
        for (int round = 0; round < rounds + 2; round++) {
            long plain = compile(javac, files, classPath, null);
            long empty = compile(javac, files, classPath, NoOpProcessor.class.getName());
            long checked = compile(javac, files, classPath, SessionProcessor.class.getName());
            if (round >= 2) { // the first two rounds warm up javac and the processor
                without.add(plain);
                noop.add(empty);
                with.add(checked);
            }
        }
        long a = median(without);
        long n = median(noop);
        long b = median(with);
        System.out.printf(Locale.ROOT, "javac -proc:none          median %d ms over %d rounds %s%n", a, rounds, without);
        System.out.printf(Locale.ROOT, "javac + no-op processor   median %d ms over %d rounds %s%n", n, rounds, noop);
        System.out.printf(Locale.ROOT, "javac + sj-processor      median %d ms over %d rounds %s%n", b, rounds, with);
        System.out.printf(Locale.ROOT, "sj-processor vs -proc:none %+.1f %%, vs a no-op processor %+.1f %%%n",
                100.0 * (b - a) / a, 100.0 * (b - n) / n);
    }

    /** A processor that claims the same annotations and does nothing: the cost of annotation processing itself. */
    @javax.annotation.processing.SupportedAnnotationTypes("org.sessionj.api.*")
    public static final class NoOpProcessor extends javax.annotation.processing.AbstractProcessor {
        @Override
        public javax.lang.model.SourceVersion getSupportedSourceVersion() {
            return javax.lang.model.SourceVersion.latestSupported();
        }

        @Override
        public boolean process(java.util.Set<? extends javax.lang.model.element.TypeElement> annotations,
                javax.annotation.processing.RoundEnvironment round) {
            return true;
        }
    }

    private static long compile(JavaCompiler javac, List<Path> files, String classPath, String processor)
            throws IOException {
        Path out = Files.createTempDirectory("sj-classes");
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager manager = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            List<String> options = new ArrayList<>(Arrays.asList("-d", out.toString(), "-cp", classPath,
                    "--release", "21"));
            if (processor != null) {
                options.addAll(List.of("-processorpath", classPath, "-processor", processor));
            } else {
                options.add("-proc:none");
            }
            // CPU time of this thread (javac compiles in the calling thread): robust against other load
            // on a shared machine, unlike wall time.
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long start = threads.getCurrentThreadCpuTime();
            boolean ok = javac.getTask(null, manager, diagnostics, options, null,
                    manager.getJavaFileObjectsFromPaths(files)).call();
            long millis = (threads.getCurrentThreadCpuTime() - start) / 1_000_000;
            if (!ok || !diagnostics.getDiagnostics().isEmpty()) {
                throw new IllegalStateException("compilation reported " + diagnostics.getDiagnostics().size()
                        + " diagnostics, first: " + diagnostics.getDiagnostics().get(0));
            }
            return millis;
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static String resource(String program) throws IOException {
        try (InputStream in = CompileTimeMeasurement.class.getResourceAsStream("/paper/" + program + ".java")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
