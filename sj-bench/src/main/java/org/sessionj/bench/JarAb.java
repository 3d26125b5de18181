package org.sessionj.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * An A/B comparison of builds that a loaded machine does not blur: each benchmarks jar given is loaded
 * in a class loader of its own in this one JVM, and their {@link AbRounds} run in chunks that alternate
 * in a shuffled order, each chunk timed by the CPU of every platform thread of the JVM (carriers of
 * virtual threads included; {@link ThreadMXBean}, nanosecond clocks). Medians and quartiles per jar, a
 * quarter of the chunks left out as warm-up. Load that comes and goes hits every jar alike, so the
 * differences are steady where JMH's figures of separate runs move by ±10 % at a load of 30–45. With two
 * ways or more, the first one's CPU over the last one's in each chunk (SJ over its baseline, run back to
 * back) is summed up as well: a ratio per chunk, which load between chunks does not move.
 *
 * <pre>
 * java -cp sj-bench/target/benchmarks.jar org.sessionj.bench.JarAb path|virtual|tcp|tcp3|tcploop|tcpsetup ROUNDS N before.jar after.jar
 * taskset -c 0 java -cp ... org.sessionj.bench.JarAb virtual 24 50000 before.jar after.jar   # one vCPU
 * </pre>
 *
 * <p>{@code path}: one thread drives both ends of an in-JVM session ({@link SessionPathBenchmark}'s
 * work), N round trips a chunk. {@code virtual}: a round trip between two virtual threads, an SJ session
 * and the bare hand-off ({@link PingPongBenchmark}'s {@code virtualSjSession} and
 * {@code virtualBareSpscHandoff}), N of each a chunk. {@code tcp}: an SJ session over TCP loopback with
 * blocking sockets and {@code java.net.Socket} with data streams ({@link TcpPingPongBenchmark}'s
 * {@code sjTcpSession} with {@code io=blocking} and {@code socketDataStreams}), CPU time that includes the
 * kernel's; {@code tcp3}: the same and, between them, the tcp transport's bare connection with blocking
 * sockets ({@code sjTcpConnection}), which tells the session's share from the connection's; {@code tcploop}: the SJ
 * session over TCP on the event loops ({@code io=eventloop}, the default) and the sockets; {@code tcpsetup}: whole
 * sessions over TCP on the event loops (set-up, one int each way, close at both ends; the figure is per session). Both jars
 * must contain {@link AbRounds} (with the mode's methods).
 */
public final class JarAb {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private JarAb() {
    }

    /** CPU time of every live platform thread so far. */
    private static long cpu() {
        long sum = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t > 0) {
                sum += t;
            }
        }
        return sum;
    }

    /** The {@link AbRounds} methods a mode times. */
    private static List<String> names(String mode) {
        return switch (mode) {
            case "path" -> List.of("path");
            case "virtual" -> List.of("virtualSession", "virtualBare");
            case "tcp" -> List.of("tcpSession", "tcpSocket");
            case "tcp3" -> List.of("tcpSession", "tcpConnection", "tcpSocket");
            case "tcploop" -> List.of("tcpLoopSession", "tcpSocket");
            case "tcpsetup" -> List.of("tcpLoopSetup");
            default -> throw new IllegalArgumentException(
                    "mode " + mode + ": path, virtual, tcp, tcp3, tcploop or tcpsetup");
        };
    }

    /**
     * Runs the comparison.
     *
     * @param args mode ({@code path}, {@code virtual}, {@code tcp}, {@code tcp3}, {@code tcploop} or {@code tcpsetup}), chunks per jar, round trips per chunk, the jars
     * @throws Exception if a jar cannot be loaded or its rounds fail
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: JarAb path|virtual|tcp|tcp3|tcploop|tcpsetup CHUNKS ROUNDTRIPS JAR...");
            System.exit(2);
        }
        String mode = args[0];
        int chunks = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        List<String> jars = List.of(args).subList(3, args.length);
        List<Object> rounds = new ArrayList<>();
        List<Map<String, Method>> methods = new ArrayList<>();
        for (String jar : jars) {
            URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(jar).toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
            Thread.currentThread().setContextClassLoader(loader);
            Class<?> type = loader.loadClass(AbRounds.class.getName());
            rounds.add(type.getConstructor().newInstance());
            Map<String, Method> byName = new LinkedHashMap<>();
            for (String name : names(mode)) {
                byName.put(name, type.getMethod(name, int.class));
            }
            methods.add(byName);
        }
        List<String> names = names(mode);
        Map<String, List<Double>> results = new LinkedHashMap<>();
        Random random = new Random(1);
        List<Integer> order = new ArrayList<>();
        for (int j = 0; j < jars.size(); j++) {
            order.add(j);
        }
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        for (int chunk = 0; chunk < chunks; chunk++) {
            Collections.shuffle(order, random);
            for (int j : order) {
                double first = 0;
                double last = 0;
                for (String name : names) {
                    long before = cpu();
                    methods.get(j).get(name).invoke(rounds.get(j), n);
                    long after = cpu();
                    double perRound = (after - before) / (double) n;
                    first = first == 0 ? perRound : first;
                    last = perRound;
                    if (chunk >= chunks / 4) {
                        results.computeIfAbsent(name + " " + Path.of(jars.get(j)).getFileName(), k -> new ArrayList<>())
                                .add(perRound);
                    }
                }
                if (chunk >= chunks / 4 && names.size() > 1) {
                    // The first way against the last one (SJ against its baseline) within one chunk: both ran
                    // back to back, so load that comes and goes between chunks cancels out of the ratio.
                    ratios.computeIfAbsent(names.get(0) + " / " + names.get(names.size() - 1) + " "
                            + Path.of(jars.get(j)).getFileName(), k -> new ArrayList<>()).add(first / last);
                }
            }
        }
        for (Map.Entry<String, List<Double>> e : results.entrySet()) {
            List<Double> v = new ArrayList<>(e.getValue());
            Collections.sort(v);
            System.out.printf("%-36s ns of CPU per round trip: median %7.1f  quartiles %7.1f %7.1f  (%d chunks)%n",
                    e.getKey(), v.get(v.size() / 2), v.get(v.size() / 4), v.get(3 * v.size() / 4), v.size());
        }
        for (Map.Entry<String, List<Double>> e : ratios.entrySet()) {
            List<Double> v = new ArrayList<>(e.getValue());
            Collections.sort(v);
            System.out.printf("%-46s ratio per chunk: median %.3f  quartiles %.3f %.3f  (%d chunks)%n",
                    e.getKey(), v.get(v.size() / 2), v.get(v.size() / 4), v.get(3 * v.size() / 4), v.size());
        }
        System.exit(0);
    }
}
