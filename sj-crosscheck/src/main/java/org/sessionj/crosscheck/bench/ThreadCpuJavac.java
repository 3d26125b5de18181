package org.sessionj.crosscheck.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import javax.tools.ToolProvider;

/**
 * javac in a fresh JVM that says, as it ends, which of its threads spent the CPU: the compiling thread,
 * the JIT's C1 and C2 compiler threads, the garbage collector's, the rest. {@link FreshJavac} starts it
 * with the options of the JDK's {@code javac} launcher ({@code -Xms8m --add-modules ALL-DEFAULT}) when the
 * benchmark is asked for the split ({@code --fresh-threads true}).
 *
 * <p>Why: in a fresh javac about half of what the processor adds runs on the JIT's threads (the
 * processor's own code and the javac methods its queries make hot), which no profile of the compiling
 * thread shows. Earlier sessions measured that with a scratch agent; this makes it repeatable.
 *
 * <p>Each thread's user + system time is read from {@code /proc/self/task/<tid>/stat} after javac
 * returns (Linux only); the JIT and GC threads are alive then. The last line of standard error is
 * {@code sj-thread-cpu <compiling> <c1> <c2> <gc> <other>}, in milliseconds.
 */
public final class ThreadCpuJavac {
    /** The prefix of the line {@link FreshJavac} reads. */
    static final String MARKER = "sj-thread-cpu";
    /** The clock ticks per second of {@code /proc}'s times. */
    private static final long TICKS_PER_SECOND = 100;

    private ThreadCpuJavac() {
    }

    /** Compiles as {@code javac ARGS} would, then prints the split and exits with javac's status. */
    public static void main(String[] args) throws IOException {
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, args);
        Map<String, Long> split = split();
        System.err.printf("%s %d %d %d %d %d%n", MARKER, split.get("compiling"), split.get("c1"), split.get("c2"),
                split.get("gc"), split.get("other"));
        System.exit(status);
    }

    /** CPU milliseconds by kind of thread, read off {@code /proc/self/task}. */
    static Map<String, Long> split() throws IOException {
        Map<String, Long> split = new TreeMap<>(Map.of("compiling", 0L, "c1", 0L, "c2", 0L, "gc", 0L, "other", 0L));
        String self = Thread.currentThread().getName();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException ended) {
                    continue; // the thread ended while the directory was read
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // utime and stime: fields 14 and 15 of stat, the 12th and 13th after the name.
                long millis = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1000 / TICKS_PER_SECOND;
                split.merge(kind(name, self), millis, Long::sum);
            }
        }
        return split;
    }

    /**
     * The kind of a thread from its name as the kernel knows it (15 characters at most): HotSpot names
     * its compiler threads {@code C1 CompilerThre…}/{@code C2 CompilerThre…} and its GC threads
     * {@code GC Thread#n}, {@code G1 …}; the launcher's main thread, which runs javac, is {@code java}
     * (or this thread's own name).
     */
    static String kind(String name, String self) {
        if (name.startsWith("C1 Compiler")) {
            return "c1";
        }
        if (name.startsWith("C2 Compiler")) {
            return "c2";
        }
        if (name.startsWith("GC ") || name.startsWith("G1 ")) {
            return "gc";
        }
        return name.equals("java") || name.equals(self) ? "compiling" : "other";
    }
}
