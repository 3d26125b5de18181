package org.sessionj.bench;

import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceClient;
import org.sessionj.bench.BenchProtocols.OnceServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The first session of a fresh JVM (issue 15, cold start): creates a runtime, opens a server
 * socket, requests a session ({@code cbegin.!<int>.?(int)}), sends one int each way and closes,
 * and prints how long that took from the start of {@code main} (class loading, interpretation and
 * the JIT's first steps included), then the second session for comparison. Run by
 * {@code scripts/cold-start.sh} in fresh JVMs, with and without an AOT cache.
 *
 * <p>The first session is also cut into phases, each timed from the end of the one before: on the
 * requesting (main) thread {@code runtime} (creating it), {@code server} (the server socket),
 * {@code thread} (starting the accepting thread), {@code request}, {@code send}, {@code receive},
 * {@code close} and {@code join} (waiting for the accepter and closing the server socket); on the
 * accepting thread {@code accept}, {@code a-receive}, {@code a-send}, {@code a-close}, timed from the
 * thread's start. With {@code -Dcoldstart.marks=true} every phase boundary is also printed as a line
 * {@code #mark <phase>} the moment it is passed, so that {@code -Xlog:class+load} on standard output
 * shows which classes each phase loads ({@code scripts/cold-start.sh classes} counts them). The
 * harness itself uses no lambda or string concatenation before the session is closed, so that what it
 * loads is the library's. The requesting thread's CPU time over the first session is printed too
 * ({@code main-thread-cpu-ms}, Linux only): on a loaded machine it varies far less than the wall time;
 * so is the accepting thread's ({@code accepter-cpu-ms}) and that of the whole process over the first
 * session ({@code process-cpu-ms}: both threads, the JIT's compilers, the GC), the figure least
 * sensitive to other processes' load.
 *
 * <p>Argument: the transport, {@code shm} (default) or {@code tcp}.
 */
public final class ColdStart {
    private static final String[] MAIN_PHASES = {"runtime", "server", "thread", "request", "send", "receive",
        "close", "join"};
    private static final String[] ACCEPTER_PHASES = {"accept", "a-receive", "a-send", "a-close"};
    private static final boolean MARKS = "true".equals(System.getProperty("coldstart.marks"));

    private ColdStart() {
    }

    /** Runs two sessions and prints the milliseconds of each, then the first session's phases. */
    public static void main(String[] args) throws InterruptedException {
        String transport = args.length > 0 ? args[0] : "shm";
        processCpuNanos(); // its own first call's class loading, before the clock
        long processStart = processCpuNanos();
        long cpuStart = threadCpuNanos();
        long start = System.nanoTime();
        long[] main = new long[MAIN_PHASES.length + 1];
        long[] accepter = new long[ACCEPTER_PHASES.length + 2]; // the phases, then the thread's CPU
        main[0] = start;
        if (MARKS) {
            System.out.println("#mark main");
        }
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports(transport).build());
        mark(main, 1, MAIN_PHASES);
        double first = session(runtime, main, accepter);
        long cpuFirst = threadCpuNanos() - cpuStart;
        long processFirst = processCpuNanos() - processStart;
        double second = session(runtime, new long[main.length], new long[accepter.length]);
        System.out.printf("cold-start %s first-session-ms %.2f second-session-ms %.2f main-thread-cpu-ms %.2f"
                + " accepter-cpu-ms %.2f process-cpu-ms %.2f%n", transport, first, second,
                cpuStart < 0 ? -1.0 : cpuFirst / 1e6, accepter[ACCEPTER_PHASES.length + 1] / 1e6,
                processStart < 0 ? -1.0 : (processFirst + accepter[ACCEPTER_PHASES.length + 1]) / 1e6);
        StringBuilder phases = new StringBuilder("phases-ms");
        append(phases, MAIN_PHASES, main);
        append(phases, ACCEPTER_PHASES, java.util.Arrays.copyOf(accepter, ACCEPTER_PHASES.length + 1));
        System.out.println(phases);
    }

    private static double session(SJRuntime runtime, long[] main, long[] accepter) throws InterruptedException {
        if (main[0] == 0) {
            main[0] = System.nanoTime();
            main[1] = main[0];
        }
        try (SJServerSocket server = runtime.serverSocket(OnceServer.class, 0)) {
            mark(main, 2, MAIN_PHASES);
            Thread thread = Thread.ofPlatform().start(new Accepter(server, accepter));
            mark(main, 3, MAIN_PHASES);
            try (SJSocket s = runtime.service(OnceClient.class, "localhost", server.port()).request()) {
                mark(main, 4, MAIN_PHASES);
                s.send(1);
                mark(main, 5, MAIN_PHASES);
                if (s.receiveInt() != 2) {
                    throw new IllegalStateException("wrong answer");
                }
                mark(main, 6, MAIN_PHASES);
            }
            mark(main, 7, MAIN_PHASES);
            thread.join();
        }
        mark(main, 8, MAIN_PHASES);
        return (main[8] - main[0]) / 1e6;
    }

    /**
     * The CPU time this thread has used, in nanoseconds, from Linux's {@code /proc/thread-self/schedstat}
     * (less sensitive to other processes' load than the wall time); -1 where it cannot be read. Read
     * before the first session's clock starts and after it ends (also by {@link ColdStartFloor}).
     */
    static long threadCpuNanos() {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/schedstat"));
            return Long.parseLong(stat.substring(0, stat.indexOf(' ')));
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The CPU time of every thread of this process so far (the JIT's compiler threads, the GC's, the
     * session's), in nanoseconds, summed from Linux's {@code /proc/self/task/<tid>/schedstat}; -1 where
     * it cannot be read. Threads that ended are not counted: the one that ends inside the first session, the
     * accepter, measures its own ({@code accepter-cpu-ms}), and {@code process-cpu-ms} adds it.
     */
    static long processCpuNanos() {
        String[] tasks = new java.io.File("/proc/self/task").list();
        if (tasks == null) {
            return -1;
        }
        long sum = 0;
        for (String task : tasks) {
            try {
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/task", task, "schedstat"));
                sum += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
            } catch (java.io.IOException | RuntimeException e) {
                // the thread ended meanwhile
            }
        }
        return sum;
    }

    /** Records the end of phase {@code i} (1-based) and, with marks on, prints it. */
    private static void mark(long[] times, int i, String[] names) {
        times[i] = System.nanoTime();
        if (MARKS) {
            System.out.println("#mark ".concat(names[i - 1]));
        }
    }

    private static void append(StringBuilder out, String[] names, long[] times) {
        for (int i = 1; i < times.length; i++) {
            out.append(' ').append(names[i - 1]).append(' ')
                    .append(String.format(java.util.Locale.ROOT, "%.2f", (times[i] - times[i - 1]) / 1e6));
        }
    }

    /** The accepting end, a named class rather than a lambda: the harness bootstraps no lambda of its own. */
    private static final class Accepter implements Runnable {
        private final SJServerSocket server;
        private final long[] times;

        Accepter(SJServerSocket server, long[] times) {
            this.server = server;
            this.times = times;
        }

        @Override
        public void run() {
            long cpu = threadCpuNanos();
            times[0] = System.nanoTime();
            try (SJSocket s = server.accept()) {
                mark(times, 1, ACCEPTER_PHASES);
                int received = s.receiveInt();
                mark(times, 2, ACCEPTER_PHASES);
                s.send(received + 1);
                mark(times, 3, ACCEPTER_PHASES);
            }
            mark(times, 4, ACCEPTER_PHASES);
            times[5] = threadCpuNanos() - cpu;
        }
    }
}
