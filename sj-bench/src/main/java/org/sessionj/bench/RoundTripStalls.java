package org.sessionj.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.nio.charset.StandardCharsets;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.PingClient;
import org.sessionj.bench.BenchProtocols.PingServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.http.relay.HttpRelay;

/**
 * The distribution of single {@code int} round trips (the session of
 * {@code HttpTransportBenchmark.intRoundTrip}) for several paths in one JVM, the paths alternating round
 * by round so that each sees the same load, and what every slow round trip coincided with. A thread
 * that sleeps 1 ms at a time runs alongside: when a round trip is slow and that thread overslept by at
 * least half as long during it, the whole process was off the CPU (the machine's scheduler, or a
 * safepoint) and the transport was not what waited; a slow round trip without such an oversleep, or
 * with GC time, is counted apart. docs/http-transport.md, run I:
 *
 * <pre>
 * taskset -c 0 java -cp sj-bench/target/benchmarks.jar org.sessionj.bench.RoundTripStalls 5 8 30 poll relay-poll
 * </pre>
 *
 * Arguments: seconds per path and round, rounds (the first is dropped as warm-up), the slow threshold
 * in ms, paths ({@code tcp}, {@code ws}, {@code poll}, {@code relay-ws}, {@code relay-poll}, as in
 * {@link HttpTransportBenchmark}; an http path with {@code -netty} appended, e.g. {@code relay-poll-netty}, runs
 * with {@code sessionj.http.leanCodec=false}: Netty's HTTP codec instead of the lean one, for an A/B in one run;
 * {@code proc-relay-poll} and {@code proc-relay-ws} go through a relay in a process of its own, {@code ./sj relay
 * --port 0} started from this class path, as a relay is deployed: the {@code relay-} paths run it in this JVM,
 * on the event loops the two peers use too; {@code relay-mixed} goes through the in-JVM relay with the requester
 * long-polling and the server's end on WebSocket, what a requester behind a proxy that refuses the upgrade gets
 * by default while its server's path to the relay passes it).
 *
 * <p>Each path's line also gives the CPU time per round trip: of every thread of this JVM (both peers, the
 * in-JVM relay, the JIT and GC) and, for the {@code proc-} paths, of the relay's process, over the rounds
 * measured: what a relay costs in work, beside what it costs in time. It moves with the machine's load as the
 * latency does (at load 27–29 on the 2-vCPU build machine one path gave 44 µs in one run and 140 µs in the
 * next: docs/benchmarks.md, twenty-first session), so compare it only between paths of one run on a quiet machine.
 */
public final class RoundTripStalls {
    private static final AtomicLong LONGEST_OVERSLEEP = new AtomicLong();

    private RoundTripStalls() {
    }

    /** One path's session and what was measured on it. */
    private static final class Path {
        final String name;
        final SJSocket session;
        final long[] samples = new long[1 << 22];
        int count;
        int next;
        long slow;
        long slowWithProcessStall;
        long slowWithGc;
        /** CPU time (ns) of this JVM's threads and the relay process, if any, over the measured rounds. */
        long cpuNanos;
        /** The relay's process ({@code proc-} paths), else null. */
        ProcessHandle relay;

        Path(String name, SJSocket session) {
            this.name = name;
            this.session = session;
        }
    }

    /** Runs the probe; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        long roundNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[0]));
        int rounds = Integer.parseInt(args[1]);
        long slowNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[2]));
        Map<String, Path> paths = new LinkedHashMap<>();
        List<AutoCloseable> closers = new ArrayList<>();
        for (String name : List.of(args).subList(3, args.length)) {
            paths.put(name, open(name, closers));
        }
        Thread.ofPlatform().daemon().name("oversleep-probe").start(RoundTripStalls::probe);
        List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
        for (int round = 0; round < rounds; round++) {
            for (Path path : paths.values()) {
                long cpu0 = cpu(path);
                long end = System.nanoTime() + roundNanos;
                while (System.nanoTime() < end) {
                    long gc0 = gcMillis(gcs);
                    LONGEST_OVERSLEEP.set(0);
                    long start = System.nanoTime();
                    path.session.outwhile(true);
                    path.session.send(path.next++);
                    path.session.receiveInt();
                    long took = System.nanoTime() - start;
                    if (round == 0) {
                        continue;
                    }
                    if (path.count < path.samples.length) {
                        path.samples[path.count++] = took;
                    }
                    if (took > slowNanos) {
                        path.slow++;
                        if (gcMillis(gcs) > gc0) {
                            path.slowWithGc++;
                        } else if (LONGEST_OVERSLEEP.get() >= took / 2) {
                            path.slowWithProcessStall++;
                        }
                    }
                }
                if (round > 0) {
                    path.cpuNanos += cpu(path) - cpu0;
                }
            }
        }
        for (Path path : paths.values()) {
            report(path, slowNanos);
        }
        for (Path path : paths.values()) {
            path.session.outwhile(false);
            path.session.close();
        }
        for (AutoCloseable closer : closers) {
            closer.close();
        }
        System.exit(0);
    }

    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU time so far of every live thread of this JVM and of {@code path}'s relay process, if any. */
    private static long cpu(Path path) {
        long sum = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t > 0) {
                sum += t;
            }
        }
        if (path.relay != null) {
            sum += path.relay.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
        }
        return sum;
    }

    private static Path open(String path, List<AutoCloseable> closers) throws java.io.IOException {
        // "-netty": the same path with Netty's HTTP codec everywhere instead of the lean codec (an A/B in one run)
        boolean netty = path.endsWith("-netty");
        String name = netty ? path.substring(0, path.length() - "-netty".length()) : path;
        System.setProperty("sessionj.http.leanCodec", String.valueOf(!netty));
        // relay-mixed: the server's end registers with WebSocket allowed, the requester then long-polls
        boolean mixed = name.equals("relay-mixed");
        System.setProperty("sessionj.http.websocket", String.valueOf(name.endsWith("ws") || mixed));
        System.clearProperty("sessionj.http.relay");
        ProcessHandle relayProcess = null;
        if (name.startsWith("proc-")) {
            name = name.substring("proc-".length());
            Process started = relayProcess(closers);
            relayProcess = started.toHandle();
            System.setProperty("sessionj.http.relay", "127.0.0.1:" + RELAY_PORTS.get(started));
        } else if (name.startsWith("relay")) {
            HttpRelay relay = HttpRelay.start(0);
            closers.add(relay::close);
            System.setProperty("sessionj.http.relay", "127.0.0.1:" + relay.port());
        }
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports(name.equals("tcp") ? "tcp" : "http").build());
        SJServerSocket server = runtime.serverSocket(PingServer.class, 0);
        if (mixed) {
            System.setProperty("sessionj.http.websocket", "false");
        }
        Thread accepter = Thread.ofPlatform().daemon().name("echo-" + path).start(() -> {
            try (SJSocket s = server.accept()) {
                while (s.inwhile()) {
                    s.send(s.receiveInt());
                }
            }
        });
        SJSocket session = runtime.service(PingClient.class, "127.0.0.1", server.port()).request();
        String expected = name.equals("tcp") ? "tcp" : "http";
        if (!SJRuntime.transportOf(session).equals(expected)) {
            throw new IllegalStateException(name + ": expected " + expected + ", got " + SJRuntime.transportOf(session));
        }
        closers.add(0, () -> {
            accepter.join(10_000);
            server.close();
        });
        Path opened = new Path(path, session);
        opened.relay = relayProcess;
        return opened;
    }

    private static final Pattern LISTENING = Pattern.compile("sj relay: listening on \\S*:(\\d+) ");

    /**
     * Starts {@code ./sj relay --port 0} in a JVM of its own (this JVM's {@code java} and class path) and
     * returns its port once it says it is listening; it is stopped with the other closers, or when this
     * JVM exits.
     */
    private static final Map<Process, Integer> RELAY_PORTS = new java.util.HashMap<>();

    private static Process relayProcess(List<AutoCloseable> closers) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process relay = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), "org.sessionj.cli.SjCommand", "relay", "--port", "0")
                .redirectErrorStream(true).start();
        Runtime.getRuntime().addShutdownHook(new Thread(relay::destroy));
        closers.add(relay::destroy);
        BufferedReader out = new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder said = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            Matcher listening = LISTENING.matcher(line);
            if (listening.find()) {
                Thread.ofPlatform().daemon().name("relay-output").start(() -> out.lines().forEach(l -> { }));
                RELAY_PORTS.put(relay, Integer.parseInt(listening.group(1)));
                return relay;
            }
            said.append(line).append('\n');
        }
        throw new IOException("the relay process ended before it listened:\n" + said);
    }

    /** Sleeps 1 ms at a time and records the longest oversleep since the last reset. */
    private static void probe() {
        while (true) {
            long before = System.nanoTime();
            LockSupport.parkNanos(1_000_000L);
            long over = System.nanoTime() - before - 1_000_000L;
            LONGEST_OVERSLEEP.accumulateAndGet(over, Math::max);
        }
    }

    private static long gcMillis(List<GarbageCollectorMXBean> gcs) {
        long total = 0;
        for (GarbageCollectorMXBean gc : gcs) {
            total += gc.getCollectionTime();
        }
        return total;
    }

    private static void report(Path path, long slowNanos) {
        long[] sorted = Arrays.copyOf(path.samples, path.count);
        Arrays.sort(sorted);
        double mean = Arrays.stream(sorted).average().orElse(0);
        System.out.printf(Locale.ROOT, "%-10s %9d round trips: mean %8.1f us, p50 %7.1f, p90 %8.1f, p99 %8.1f, p99.9 %9.1f,"
                + " max %9.1f us; CPU %7.1f us per round trip%n", path.name, sorted.length, mean / 1e3, at(sorted, 0.5),
                at(sorted, 0.9), at(sorted, 0.99), at(sorted, 0.999), at(sorted, 1.0),
                sorted.length == 0 ? 0.0 : path.cpuNanos / 1e3 / sorted.length);
        System.out.printf(Locale.ROOT, "%-10s over %d ms: %d, of them %d with the whole process off the CPU, %d with a GC,"
                + " %d other%n", path.name, TimeUnit.NANOSECONDS.toMillis(slowNanos), path.slow, path.slowWithProcessStall,
                path.slowWithGc, path.slow - path.slowWithProcessStall - path.slowWithGc);
        StringBuilder histogram = new StringBuilder(path.name + " histogram (>= us: count):");
        long[] buckets = new long[64];
        for (long t : sorted) {
            buckets[63 - Long.numberOfLeadingZeros(Math.max(1, t / 1000))]++;
        }
        for (int i = 0; i < 64; i++) {
            if (buckets[i] > 0) {
                histogram.append(' ').append(1L << i).append(": ").append(buckets[i]);
            }
        }
        System.out.println(histogram);
    }

    private static double at(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, quantile * sorted.length)] / 1e3;
    }
}
