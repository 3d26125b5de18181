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
 *   <li>{@code <sessions>} sessions started at once, each on its own virtual thread (request, one
 *       round trip, close): how many failed, and sessions per second from the first request to the
 *       last close;
 *   <li>{@code <idle>} raw TCP connections opened and left silent (every other one with half a frame
 *       header), then {@code <probes>} sessions of a legitimate client one after another: each one's
 *       time from request to close.
 * </ol>
 * Prints one {@code LOAD key value} line per figure. With the server's process id as a fifth argument
 * it also prints the CPU time (user + system, from {@code /proc}) each JVM spent per session of the
 * concurrent phase: on a machine shared with other work the rate measures the share of the cores
 * the two JVMs got, the CPU per session what a session costs.
 */
public final class AcceptLoadClient {
    private AcceptLoadClient() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int idle = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        int probes = args.length > 3 ? Integer.parseInt(args[3]) : 50;
        long serverPid = args.length > 4 ? Long.parseLong(args[4]) : -1;
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
        SJService service = runtime.service(OnceClient.class, "localhost", port);
        for (int i = 0; i < 200; i++) {
            once(service, i); // warm both JVMs up
        }
        long serverCpu = cpuNanos(serverPid);
        long clientCpu = cpuNanos(ProcessHandle.current().pid());
        concurrent(service, sessions);
        long clientPerSession = (cpuNanos(ProcessHandle.current().pid()) - clientCpu) / sessions;
        System.out.printf("LOAD concurrent.clientCpuMicrosPerSession %.0f%n", clientPerSession / 1e3);
        if (serverPid > 0) {
            long serverPerSession = (cpuNanos(serverPid) - serverCpu) / sessions;
            System.out.printf("LOAD concurrent.serverCpuMicrosPerSession %.0f%n", serverPerSession / 1e3);
            System.out.printf("LOAD concurrent.sessionsPerCpuSecond %.0f (server and client each on a core of its own)%n",
                    1e9 / Math.max(serverPerSession, clientPerSession));
        }
        idleThenProbe(service, port, idle, probes);
    }

    /** User + system CPU of process {@code pid} so far ({@code /proc/<pid>/stat}), in nanoseconds; 0 if unknown. */
    private static long cpuNanos(long pid) {
        if (pid <= 0) {
            return 0;
        }
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
            return ticks * 10_000_000L; // USER_HZ is 100 on Linux
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    private static void once(SJService service, int value) {
        try (SJSocket s = service.request()) {
            s.send(value);
            if (s.receiveInt() != value + 1) {
                throw new IllegalStateException("wrong answer");
            }
        }
    }

    private static void concurrent(SJService service, int sessions) throws InterruptedException {
        AtomicInteger failed = new AtomicInteger();
        ConcurrentLinkedQueue<String> reasons = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(sessions);
        long started = System.nanoTime();
        for (int i = 0; i < sessions; i++) {
            int value = i;
            Thread.ofVirtual().start(() -> {
                try {
                    once(service, value);
                } catch (RuntimeException e) {
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
    }

    private static void idleThenProbe(SJService service, int port, int idle, int probes) throws Exception {
        List<Socket> open = new ArrayList<>();
        try {
            for (int i = 0; i < idle; i++) {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("localhost", port), 10_000);
                if (i % 2 == 1) {
                    s.getOutputStream().write(new byte[] {0, 0});
                    s.getOutputStream().flush();
                }
                open.add(s);
            }
            long[] micros = new long[probes];
            for (int i = 0; i < probes; i++) {
                long t0 = System.nanoTime();
                once(service, i);
                micros[i] = (System.nanoTime() - t0) / 1_000;
            }
            Arrays.sort(micros);
            System.out.println("LOAD idle.connections " + idle);
            System.out.printf("LOAD idle.probe.p50Millis %.2f%n", micros[probes / 2] / 1e3);
            System.out.printf("LOAD idle.probe.p99Millis %.2f%n", micros[Math.min(probes - 1, probes * 99 / 100)] / 1e3);
            System.out.printf("LOAD idle.probe.maxMillis %.2f%n", micros[probes - 1] / 1e3);
        } finally {
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
