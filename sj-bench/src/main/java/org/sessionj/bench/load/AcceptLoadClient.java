package org.sessionj.bench.load;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceClient;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The client side of the accept-load test (issue 13's goals): against an {@link AcceptLoadServer} on
 * {@code localhost:<port>},
 * <ol>
 *   <li>{@code load.warmUpRounds} warm-up rounds (system property, default 3: reported, not judged; the
 *       server's JIT still compiles what only concurrency reaches), then {@code load.rounds} measured
 *       rounds (default 3, judged: their sessions over their time, {@code judged.sessionsPerSecond};
 *       the failures of every round, {@code judged.failed}); in each,
 *       {@code <sessions>} sessions started at once, each on its own virtual thread (request, one
 *       round trip, close): how many failed, and sessions per second from the first request to the
 *       last close;
 *   <li>{@code <idle>} raw TCP connections opened and left silent (every other one with half a frame
 *       header), then {@code <probes>} (default 1,000) sessions of a legitimate client one after
 *       another: each one's time from request to close, as nearest-rank p50, p90, p99 and the maximum,
 *       and the five slowest with when they started (a burst at the start, a period, or scattered).
 * </ol>
 * Prints one {@code LOAD key value} line per figure. With the server's process id as a fifth argument
 * it also prints the CPU time (user + system, from {@code /proc}) each JVM spent per session of the
 * concurrent phase: on a machine shared with other work the rate measures the share of the cores
 * the two JVMs got, the CPU per session what a session costs. That CPU is also split by thread
 * kind ({@code /proc/<pid>/task}): event loops, virtual-thread carriers, JIT compilers, GC, other.
 * With {@code netty} as a sixth argument the sessions are the same exchange on plain Netty
 * ({@link PlainNettyEcho}, against {@code AcceptLoadServer netty}): the floor.
 */
public final class AcceptLoadClient {
    private AcceptLoadClient() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int idle = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        int probes = args.length > 3 ? Integer.parseInt(args[3]) : 1_000;
        long serverPid = args.length > 4 ? Long.parseLong(args[4]) : -1;
        boolean plain = args.length > 5 && args[5].equals("netty");
        Session session;
        if (plain) {
            session = value -> PlainNettyEcho.once("localhost", port, value);
        } else {
            SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
            SJService service = runtime.service(OnceClient.class, "localhost", port);
            session = value -> once(service, value);
        }
        System.out.println("LOAD mode " + (plain ? "plain netty (the floor)" : "sj tcp sessions"));
        int warmUp = Integer.parseInt(System.getProperty("load.warmUp", "2000"));
        for (int i = 0; i < warmUp; i++) {
            session.once(i); // warm both JVMs up
        }
        long self = ProcessHandle.current().pid();
        // Warm-up rounds, reported but not judged: what only concurrency reaches is still compiled by the
        // JIT there (the cold server's figure is what a user sees first, so it is printed too); then the
        // measured rounds, judged as JMH judges after its warm-up iterations.
        int warmUpRounds = Integer.parseInt(System.getProperty("load.warmUpRounds", "3"));
        int measuredRounds = Integer.parseInt(System.getProperty("load.rounds", "3"));
        int rounds = warmUpRounds + measuredRounds;
        int failedInAll = 0;
        int measuredSessions = 0;
        double measuredSeconds = 0;
        double worstMeasured = Double.MAX_VALUE;
        for (int round = 1; round <= rounds; round++) {
            boolean warm = round <= warmUpRounds;
            System.out.println("LOAD round " + round + " of " + rounds
                    + (warm ? " (warm-up: reported, not judged)" : " (measured: judged)"));
            java.util.Map<String, Long> serverCpu = cpuByThreadKind(serverPid);
            java.util.Map<String, Long> clientCpu = cpuByThreadKind(self);
            Burst burst = concurrent(session, sessions);
            failedInAll += burst.failed();
            if (!warm) {
                measuredSessions += sessions;
                measuredSeconds += burst.seconds();
                worstMeasured = Math.min(worstMeasured, sessions / burst.seconds());
            }
            long clientPerSession = perSession(clientCpu, cpuByThreadKind(self), sessions, "client");
            if (serverPid > 0) {
                long serverPerSession = perSession(serverCpu, cpuByThreadKind(serverPid), sessions, "server");
                System.out.printf("LOAD concurrent.sessionsPerCpuSecond %.0f (server and client each on a core of its"
                        + " own)%n", 1e9 / Math.max(serverPerSession, clientPerSession));
            }
        }
        System.out.println("LOAD judged.rounds " + measuredRounds + " measured after " + warmUpRounds
                + " warm-up rounds (load.rounds, load.warmUpRounds)");
        if (measuredRounds > 0) {
            System.out.printf("LOAD judged.sessionsPerSecond %.0f (the measured rounds' sessions over their time;"
                    + " slowest measured round %.0f)%n", measuredSessions / measuredSeconds, worstMeasured);
        }
        System.out.println("LOAD judged.failed " + failedInAll + " (every round, warm-up included)");
        idleThenProbe(session, port, idle, probes);
    }

    /** What one burst of concurrent sessions gave. */
    private record Burst(int failed, double seconds) {
    }

    /** One session (or plain exchange) with the server. */
    @FunctionalInterface
    private interface Session {
        void once(int value) throws Exception;
    }

    /** Prints CPU per session in total and by thread kind, from two snapshots; the total in nanoseconds. */
    private static long perSession(java.util.Map<String, Long> before, java.util.Map<String, Long> after, int sessions,
            String side) {
        long total = 0;
        StringBuilder parts = new StringBuilder();
        for (var e : new java.util.TreeMap<>(after).entrySet()) {
            long spent = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            total += spent;
            if (spent > 0) {
                parts.append(String.format(" %s=%.0f", e.getKey(), spent / 1e3 / sessions));
            }
        }
        System.out.printf("LOAD concurrent.%sCpuMicrosPerSession %.0f%n", side, total / 1e3 / sessions);
        System.out.println("LOAD concurrent." + side + "CpuMicrosPerSessionByThread" + parts);
        return total / sessions;
    }

    /**
     * User + system CPU of the threads of process {@code pid} so far ({@code /proc/<pid>/task/<tid>/stat}),
     * in nanoseconds, by kind of thread: event loops, virtual-thread carriers, JIT, GC, the rest. Threads
     * that ended are lost, so the kinds add up to a little less than the process's total.
     */
    private static java.util.Map<String, Long> cpuByThreadKind(long pid) {
        java.util.Map<String, Long> kinds = new java.util.HashMap<>();
        if (pid <= 0) {
            return kinds;
        }
        try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/" + pid + "/task"))) {
            for (java.nio.file.Path task : (Iterable<java.nio.file.Path>) tasks::iterator) {
                try {
                    String stat = java.nio.file.Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
                    kinds.merge(kind(name), ticks * 10_000_000L, Long::sum); // USER_HZ is 100 on Linux
                } catch (java.io.IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (java.io.IOException e) {
            return kinds;
        }
        return kinds;
    }

    private static String kind(String thread) {
        if (thread.startsWith("sj-netty") || thread.startsWith("plain-netty")) {
            return "eventLoops";
        }
        if (thread.startsWith("ForkJoinPool")) {
            return "virtualThreadCarriers";
        }
        if (thread.startsWith("C1 ") || thread.startsWith("C2 ")) {
            return "jit";
        }
        if (thread.startsWith("GC ") || thread.startsWith("G1 ") || thread.equals("VM Thread")) {
            return "gc";
        }
        return "other";
    }

    private static void once(SJService service, int value) {
        try (SJSocket s = service.request()) {
            s.send(value);
            if (s.receiveInt() != value + 1) {
                throw new IllegalStateException("wrong answer");
            }
        }
    }

    private static Burst concurrent(Session session, int sessions) throws InterruptedException {
        AtomicInteger failed = new AtomicInteger();
        ConcurrentLinkedQueue<String> reasons = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(sessions);
        long started = System.nanoTime();
        for (int i = 0; i < sessions; i++) {
            int value = i;
            Thread.ofVirtual().start(() -> {
                try {
                    session.once(value);
                } catch (Exception e) {
                    failed.incrementAndGet();
                    if (reasons.size() < 5) {
                        reasons.add(e.toString());
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        if (!done.await(10, TimeUnit.MINUTES)) {
            System.out.println("LOAD concurrent.unfinished " + done.getCount());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.println("LOAD concurrent.sessions " + sessions);
        System.out.println("LOAD concurrent.failed " + failed.get());
        System.out.printf("LOAD concurrent.seconds %.2f%n", seconds);
        System.out.printf("LOAD concurrent.sessionsPerSecond %.0f%n", sessions / seconds);
        reasons.forEach(r -> System.out.println("LOAD concurrent.failure " + r));
        return new Burst(failed.get(), seconds);
    }

    private static void idleThenProbe(Session session, int port, int idle, int probes) throws Exception {
        List<Socket> open = new ArrayList<>();
        try {
            long opening = System.nanoTime();
            for (int i = 0; i < idle; i++) {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("localhost", port), 10_000);
                if (i % 2 == 1) {
                    s.getOutputStream().write(new byte[] {0, 0});
                    s.getOutputStream().flush();
                }
                open.add(s);
            }
            System.out.println("LOAD idle.connections " + idle);
            System.out.printf("LOAD idle.openedInMillis %.0f%n", (System.nanoTime() - opening) / 1e6);
            if (probes <= 0) {
                return;
            }
            // A diagnostic only (default 0): a pause between opening the idle connections and the first probe.
            Thread.sleep(Long.parseLong(System.getProperty("load.idleSettleMillis", "0")));
            long[] micros = new long[probes];
            long[] startedMicros = new long[probes]; // since the first probe: when the slow ones were
            long first = System.nanoTime();
            for (int i = 0; i < probes; i++) {
                long t0 = System.nanoTime();
                session.once(i);
                micros[i] = (System.nanoTime() - t0) / 1_000;
                startedMicros[i] = (t0 - first) / 1_000;
            }
            double phaseSeconds = (System.nanoTime() - first) / 1e9;
            Integer[] bySlowness = new Integer[probes];
            for (int i = 0; i < probes; i++) {
                bySlowness[i] = i;
            }
            Arrays.sort(bySlowness, (a, b) -> Long.compare(micros[b], micros[a]));
            long[] sorted = micros.clone();
            Arrays.sort(sorted);
            System.out.println("LOAD idle.probe.count " + probes + " (one after another; p99 is a real percentile"
                    + " only from some hundreds on)");
            System.out.printf("LOAD idle.probe.seconds %.1f (the idle connections must outlive it:"
                    + " sessionj.heartbeat.timeout 20 s)%n", phaseSeconds);
            for (int pct : new int[] {50, 90, 99}) {
                System.out.printf("LOAD idle.probe.p%dMillis %.2f%n", pct, percentile(sorted, pct) / 1e3);
            }
            System.out.printf("LOAD idle.probe.maxMillis %.2f%n", sorted[probes - 1] / 1e3);
            StringBuilder slowest = new StringBuilder();
            for (int k = 0; k < Math.min(5, probes); k++) {
                int i = bySlowness[k];
                slowest.append(String.format(" #%d@%.0fms=%.1fms", i, startedMicros[i] / 1e3, micros[i] / 1e3));
            }
            System.out.println("LOAD idle.probe.slowest" + slowest + " (probe #index@start since the first=time)");
            System.out.println("LOAD idle.probe.firstStartedAt " + java.time.Instant.now().minusNanos(System.nanoTime() - first));
            System.out.println("LOAD idle.stillOpen " + stillOpen(open) + " of " + idle);
        } finally {
            for (Socket s : open) {
                s.close();
            }
        }
    }

    /** The nearest-rank percentile of sorted values: the smallest value at least pct % of them do not exceed. */
    private static long percentile(long[] sorted, int pct) {
        int rank = (int) Math.ceil(pct / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /** How many of the idle connections the server has not closed (a read sees heartbeats, EOF or nothing). */
    private static int stillOpen(List<Socket> sockets) {
        int open = 0;
        byte[] buffer = new byte[64];
        for (Socket s : sockets) {
            try {
                s.setSoTimeout(1);
                if (s.getInputStream().read(buffer) >= 0) {
                    open++; // the server's heartbeats
                }
            } catch (java.net.SocketTimeoutException e) {
                open++; // nothing to read: open
            } catch (java.io.IOException e) {
                // reset: closed by the server
            }
        }
        return open;
    }
}
