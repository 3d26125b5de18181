package org.sessionj.examples.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a demo job's time goes, rank by rank: with {@code SJ_DEMO_PHASES=1} in the environment every
 * rank prints one line to standard error at each step of its life ({@code jvm-start}, {@code main},
 * the runtime's first server socket, the rendezvous, connecting, the program, the exit), with the wall
 * clock (epoch milliseconds, comparable across the processes of one host) and the process's CPU time
 * so far. CPU time is what the machine's load stretches least, so it is the figure to compare between
 * runs on a shared machine; the wall clock shows the order and the waits.
 *
 * <pre>{@code sj-phase rank=1 wall=1795864815.780 cpu=412 jvm-start}</pre>
 *
 * <p>At its {@code exit} step a rank also says where its CPU time went, per kind of thread (Linux):
 *
 * <pre>{@code sj-phase rank=1 threads main=250 C2_CompilerThre=160 C1_CompilerThre=90 ...}</pre>
 *
 * <p>With {@code SJ_DEMO_PHASES=threads}, also the same so far at {@code connected} and {@code run-done}
 * ({@code threads@connected …}), so that the timed region's CPU per kind of thread is their difference;
 * with {@code SJ_DEMO_PHASES=steps}, at every step ({@code threads@registered …}), so that every step's
 * CPU per kind of thread is (the JIT compilers against the rank's own threads during the runtime's start,
 * the rendezvous, connecting). Reading them costs each step a few milliseconds of CPU, counted in the
 * next step's {@code cpu=}.
 *
 * <p>Child ranks inherit the environment, so one variable traces the whole job. Off, a step costs one
 * field read. docs/demos.md ("Where a job's time goes") shows how to read the lines.
 */
public final class Phases {
    /** The environment variable that turns the lines on (any value but empty or {@code 0}). */
    public static final String VARIABLE = "SJ_DEMO_PHASES";

    private static final boolean ON = on(System.getenv(VARIABLE));

    /** Whether the per-thread lines around the timed region are printed too ({@code SJ_DEMO_PHASES=threads}). */
    private static final boolean AROUND_TIMED = aroundTimed(System.getenv(VARIABLE));

    /** Whether every step's per-thread line is printed ({@code SJ_DEMO_PHASES=steps}). */
    private static final boolean EVERY_STEP = everyStep(System.getenv(VARIABLE));

    /** The numbers at the end of a pool thread's name ({@code -2-1}, {@code #3}). */
    private static final Pattern POOL_NUMBER = Pattern.compile("([-#]\\d+)+$");

    private Phases() {
    }

    /**
     * Whether {@code value} asks for the per-thread lines at {@code connected} and {@code run-done}:
     * {@code threads}. Off by default because reading them runs cold code (and the JIT compiling it)
     * next to the timed region, which the plain phase lines should not disturb.
     */
    static boolean aroundTimed(String value) {
        return "threads".equals(value) || everyStep(value);
    }

    /**
     * Whether {@code value} asks for a per-thread line at every step: {@code steps} (which includes the
     * lines around the timed region).
     */
    static boolean everyStep(String value) {
        return "steps".equals(value);
    }

    static boolean on(String value) {
        return value != null && !value.isEmpty() && !value.equals("0");
    }

    /** Whether the lines are printed. */
    public static boolean enabled() {
        return ON;
    }

    /**
     * Prints {@code rank}'s step {@code name} when enabled; the first step of a process also prints
     * when its JVM started (the operating system's start time, 10 ms resolution).
     */
    public static void mark(int rank, String name) {
        if (ON) {
            print(System.err, rank, name, AROUND_TIMED, EVERY_STEP);
        }
    }

    private static boolean started;

    /**
     * Prints step {@code name}'s line and the per-thread lines due: at {@code exit} always, around the
     * timed region when {@code aroundTimed}, after every other step too when {@code everyStep}.
     */
    static synchronized void print(PrintStream err, int rank, String name, boolean aroundTimed, boolean everyStep) {
        // The timed region's CPU is the cpu= at run-done less the one at connected: the per-thread figures
        // are read before connected's cpu= and after run-done's, so that reading them is not counted in it.
        Optional<Map<String, Long>> before = aroundTimed && name.equals("connected") ? threads() : Optional.empty();
        ProcessHandle.Info info = ProcessHandle.current().info();
        if (!started) {
            started = true;
            startInstant().ifPresent(at -> err.println(line(rank, at, Duration.ZERO, "jvm-start")));
        }
        err.println(line(rank, Instant.now(), info.totalCpuDuration().orElse(Duration.ZERO), name));
        before.ifPresent(groups -> err.println(threadsLine(rank, name, groups)));
        if (name.equals("exit")) {
            threads().ifPresent(groups -> err.println(threadsLine(rank, groups)));
        } else if (aroundTimed && name.equals("run-done") || everyStep && !name.equals("connected")) {
            threads().ifPresent(groups -> err.println(threadsLine(rank, name, groups)));
        }
    }

    /**
     * The CPU time of this process's threads so far, summed per kind of thread, largest first: Linux
     * only ({@code /proc/self/task/TID/stat}, the thread's name and its user and system clock ticks,
     * hundredths of a second), so that the compiler, garbage collector and runtime threads the JVM
     * itself starts show next to the program's (empty elsewhere, or when a thread's file cannot be read).
     */
    static Optional<Map<String, Long>> threads() {
        Map<String, Long> groups = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (NoSuchFileException e) {
                    continue; // the thread ended meanwhile
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String[] fields = stat.substring(close + 2).split(" ");
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields 14 and 15 of the line
                groups.merge(kind(stat.substring(open + 1, close)), ticks * 10, Long::sum);
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.of(groups);
    }

    /**
     * A thread's kind from its name as the kernel keeps it (at most 15 characters): the digits that
     * number threads of one pool dropped, so that C2's compiler threads or Netty's event loops add up.
     */
    static String kind(String threadName) {
        String kind = POOL_NUMBER.matcher(threadName).replaceAll("").strip();
        return kind.isEmpty() ? threadName : kind;
    }

    /** {@code sj-phase rank=R threads main=250 C2_CompilerThre=160 ...}: milliseconds per kind, largest first, none of 0. */
    static String threadsLine(int rank, Map<String, Long> groups) {
        return threadsLine(rank, null, groups);
    }

    /**
     * As {@link #threadsLine(int, Map)}, at step {@code step} ({@code threads@connected …}) unless it is
     * null: the lines at {@code connected} and {@code run-done} give the timed region's CPU per kind of
     * thread by difference (the program's thread against the JIT compilers, the event loops, the GC).
     */
    static String threadsLine(int rank, String step, Map<String, Long> groups) {
        StringBuilder line = new StringBuilder("sj-phase rank=").append(rank).append(" threads");
        if (step != null) {
            line.append('@').append(step);
        }
        groups.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> line.append(' ').append(e.getKey().replace(' ', '_')).append('=').append(e.getValue()));
        return line.toString();
    }

    /**
     * When this process started, to the kernel's clock tick: {@link ProcessHandle.Info#startInstant} adds
     * the tick count to the boot time in whole seconds, up to a second off. Here the process's age is
     * the system's uptime ({@code /proc/uptime}, hundredths) less its start tick ({@code /proc/self/stat},
     * field 22, hundredths on Linux), taken from now; elsewhere the JDK's figure.
     */
    static Optional<Instant> startInstant() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long startTicks = Long.parseLong(fields[19]);        // field 22 of the whole line
            double uptime = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
            long ageMillis = Math.round(uptime * 1000) - startTicks * 10;
            return Optional.of(Instant.now().minusMillis(ageMillis));
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().info().startInstant();
        }
    }

    /** One line: {@code sj-phase rank=R wall=EPOCH_SECONDS.MILLIS cpu=MILLIS NAME}. */
    static String line(int rank, Instant at, Duration cpu, String name) {
        return String.format(Locale.ROOT, "sj-phase rank=%d wall=%d.%03d cpu=%d %s", rank, at.getEpochSecond(),
                at.getNano() / 1_000_000, cpu.toMillis(), name);
    }
}
