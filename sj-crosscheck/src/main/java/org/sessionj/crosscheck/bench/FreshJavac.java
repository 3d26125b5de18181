package org.sessionj.crosscheck.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One compilation as a user runs it: the JDK's {@code javac} launcher in a fresh process, so that javac
 * and the processor both start cold, timed by the CPU the whole process spent (user + system time of
 * all its threads: the compiling thread, the JIT compilers, the GC), and by wall time.
 *
 * <p>Why a process of its own: in the harness's JVM javac itself is warm after the warm-up rounds, and
 * that JVM's state (code compiled and profiled by earlier compilations, classes of earlier processor
 * loaders) is shared by the configurations compared. A fresh process per compilation shares nothing;
 * it is what {@code javac} on the command line, or a build that compiles one module per JVM, costs.
 *
 * <p>The child's CPU time is read from this process's {@code /proc/self/stat} ({@code cutime} and
 * {@code cstime}: the CPU time of the children this process has waited for; a child's is added when
 * {@link Process#waitFor()} returns). Linux only; elsewhere {@link #compile} throws.
 */
final class FreshJavac {
    /** The clock ticks per second of {@code /proc}'s times ({@code sysconf(_SC_CLK_TCK)}: 100 on Linux). */
    private static final long TICKS_PER_SECOND = 100;

    /**
     * One compilation's wall and whole-process CPU time, in nanoseconds, and with {@code threads} asked for,
     * its CPU by kind of thread ({@link ThreadCpuJavac}); otherwise null.
     */
    record Sample(long wall, long processCpu, Threads threads) {
    }

    /** CPU milliseconds of a fresh javac's compiling thread, C1 and C2 compiler threads, GC threads and the rest. */
    record Threads(long compiling, long c1, long c2, long gc, long other) {
        /** The JIT's share: both compilers' threads. */
        long jit() {
            return c1 + c2;
        }
    }

    private final Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    /** Whether to run javac through {@link ThreadCpuJavac}, which reports the CPU of each kind of thread. */
    private boolean threads;
    private final String classPath;
    /** The processor path of the baseline build ({@link Javac.Setup#SJ_BASELINE}), or null. */
    private final String baselinePath;

    /**
     * @param classPath the class path of the compiled program (sj-api and the runtime)
     * @param baseline another sj-processor build's classes (a directory or jar), compiled as
     *     {@link Javac.Setup#SJ_BASELINE}; null for none
     */
    FreshJavac(String classPath, String baseline) {
        this.classPath = classPath;
        this.baselinePath = baseline == null ? null : Javac.baselineProcessorPath(baseline);
    }

    /**
     * Runs javac through {@link ThreadCpuJavac} ({@code java -Xms8m --add-modules ALL-DEFAULT}, as the
     * {@code javac} launcher starts it) instead of the launcher, so that each sample says which threads spent
     * the CPU.
     */
    void splitThreads(boolean split) {
        this.threads = split;
    }

    /** Whether a baseline build was given, so that {@link Javac.Setup#SJ_BASELINE} can be compiled. */
    boolean hasBaseline() {
        return baselinePath != null;
    }

    /**
     * Compiles {@code files} into {@code out} in a fresh javac process, configured as {@code setup}:
     * {@code -proc:none}, or a processor named with {@code -processor} and loaded from {@code -processorpath}
     * (as Maven's {@code annotationProcessorPaths}). Throws if javac fails.
     */
    Sample compile(List<Path> files, Path out, Javac.Setup setup, Path scratch) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("-d", out.toString(), "-cp", classPath, "--release", "21",
                "-implicit:none"));
        switch (setup) {
            case PROC_NONE -> arguments.add("-proc:none");
            case NO_OP -> arguments.addAll(List.of("-processorpath", Javac.NO_OP_PROCESSOR_PATH,
                    "-processor", NoOpProcessor.class.getName()));
            case SJ -> arguments.addAll(List.of("-processorpath", Javac.SJ_PROCESSOR_PATH,
                    "-processor", org.sessionj.processor.SessionProcessor.class.getName()));
            case SJ_BASELINE -> {
                if (baselinePath == null) {
                    throw new IllegalStateException("no baseline build to compile with: give --baseline DIR");
                }
                arguments.addAll(List.of("-processorpath", baselinePath,
                        "-processor", org.sessionj.processor.SessionProcessor.class.getName()));
            }
        }
        for (Path file : files) {
            arguments.add(file.toString());
        }
        // An argument file: 300 source paths and the class path would overflow some command lines.
        Path argumentFile = Files.createTempFile(scratch, "javac", ".args");
        Files.write(argumentFile, arguments.stream().map(FreshJavac::quoted).toList(), StandardCharsets.UTF_8);
        Path log = Files.createTempFile(scratch, "javac", ".log");
        List<String> command = threads
                ? List.of(java.toString(), "-Xms8m", "--add-modules", "ALL-DEFAULT", "-cp", Javac.NO_OP_PROCESSOR_PATH,
                        ThreadCpuJavac.class.getName(), "@" + argumentFile)
                : List.of(javac.toString(), "@" + argumentFile);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        long cpu = childrenCpu();
        long wall = System.nanoTime();
        int exit = builder.start().waitFor();
        wall = System.nanoTime() - wall;
        cpu = childrenCpu() - cpu;
        String output = Files.readString(log);
        Files.delete(argumentFile);
        Files.delete(log);
        if (exit != 0) {
            throw new IllegalStateException(setup.label + " in a fresh process exited with " + exit + ": "
                    + output.substring(0, Math.min(2000, output.length())));
        }
        return new Sample(wall, cpu, threads ? threads(output) : null);
    }

    /** The split {@link ThreadCpuJavac} printed last. */
    private static Threads threads(String output) {
        int at = output.lastIndexOf(ThreadCpuJavac.MARKER + " ");
        if (at < 0) {
            throw new IllegalStateException("the fresh javac printed no thread split: " + output);
        }
        String line = output.substring(at + ThreadCpuJavac.MARKER.length() + 1).lines().findFirst().orElseThrow();
        String[] ms = line.strip().split(" ");
        return new Threads(Long.parseLong(ms[0]), Long.parseLong(ms[1]), Long.parseLong(ms[2]), Long.parseLong(ms[3]),
                Long.parseLong(ms[4]));
    }

    /** javac's argument-file syntax: a path with spaces or quotes must be quoted. */
    private static String quoted(String argument) {
        return "\"" + argument.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** User + system CPU time of the children this process has waited for, in nanoseconds. */
    static long childrenCpu() throws IOException {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc/self/stat"));
        } catch (IOException e) {
            throw new IOException("the fresh-process measurement reads /proc/self/stat (Linux only)", e);
        }
        // Fields after the command name (which may hold spaces) in parentheses: state is field 3, so
        // cutime (field 16) and cstime (field 17) are the 14th and 15th after the closing parenthesis.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
        return ticks * (1_000_000_000L / TICKS_PER_SECOND);
    }
}
