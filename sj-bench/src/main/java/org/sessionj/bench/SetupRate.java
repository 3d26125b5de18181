package org.sessionj.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceClient;
import org.sessionj.bench.BenchProtocols.OnceServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The in-JVM session set-up rate across threads, with the CPU each session costs (issue 15: on a
 * machine shared with other work, the rate says little; the CPU per session says what the cores could
 * do). As {@code SessionSetupBenchmark.wholeSession} with {@code -t}: every requesting thread has a
 * server socket and an accepter thread of its own and runs whole sessions
 * ({@code cbegin.!<int>.?(int)}: request, type check, one int each way, close) back to back. After a
 * warm-up, prints the sessions per second, the process's CPU time per session (every thread of the
 * JVM: requesters, accepters, handshakes, GC and JIT) and the rate that CPU time allows on this
 * machine's processors.
 *
 * <p>Arguments: requesting threads (default 4), seconds measured (default 10), seconds of warm-up
 * (default 5), transport (default {@code shm}; {@code bare}: {@link BareSetup}, the hand-offs of a
 * session and nothing else, the floor), threads ({@code platform}, the default, or {@code virtual}:
 * requesters and accepters on virtual threads).
 */
public final class SetupRate {
    private SetupRate() {
    }

    /** Runs the sessions and prints one line of figures. */
    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 10;
        double warmup = args.length > 2 ? Double.parseDouble(args[2]) : 5;
        String transport = args.length > 3 ? args[3] : "shm";
        boolean virtual = args.length > 4 && args[4].equals("virtual");
        boolean bare = transport.equals("bare");
        SJRuntime runtime = bare ? null : SJRuntime.create(SJRuntimeConfig.builder().transports(transport).build());
        AtomicLong sessions = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        List<SJServerSocket> servers = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Runnable once;
            if (bare) {
                BareSetup setup = new BareSetup();
                setup.startAccepter("accepter-" + t, virtual);
                once = setup::session;
            } else {
                SJServerSocket server = runtime.serverSocket(OnceServer.class, 0);
                servers.add(server);
                SessionSetupBenchmark.startAccepter(server, "accepter-" + t, virtual);
                SJService service = runtime.service(OnceClient.class, "127.0.0.1", server.port());
                once = () -> {
                    try (SJSocket s = service.request()) {
                        s.send(1);
                        s.receiveInt();
                    }
                };
            }
            Runnable loop = () -> {
                long done = 0;
                while (running.get()) {
                    once.run();
                    if (++done % 64 == 0) {
                        sessions.addAndGet(64);
                    }
                }
            };
            workers.add((virtual ? Thread.ofVirtual() : Thread.ofPlatform()).name("requester-" + t).start(loop));
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Thread.sleep((long) (warmup * 1000));
        long s0 = sessions.get();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        long s1 = sessions.get();
        long cpu1 = os.getProcessCpuTime();
        long t1 = System.nanoTime();
        running.set(false);
        for (Thread w : workers) {
            w.join();
        }
        servers.forEach(SJServerSocket::close);
        long n = s1 - s0;
        double wall = (t1 - t0) / 1e9;
        double cpuPerSession = (cpu1 - cpu0) / 1e3 / Math.max(1, n);
        int cpus = Runtime.getRuntime().availableProcessors();
        System.out.printf("setup-rate %s%s threads %d sessions %d sessions-per-s %.0f cpu-us-per-session %.1f"
                        + " cpus %d cpu-bound-sessions-per-s %.0f process-cpu-share %.2f load %s%n",
                transport, virtual ? " virtual" : "", threads, n, n / wall, cpuPerSession, cpus, cpus * 1e6 / cpuPerSession,
                (cpu1 - cpu0) / 1e9 / wall / cpus, String.format("%.1f", os.getSystemLoadAverage()));
    }
}
