package org.sessionj.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceClient;
import org.sessionj.bench.BenchProtocols.OnceServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * Whole-session set-up outside JMH, the transports alternating round by round in one JVM, with the
 * wall-clock time and the process's CPU time per session (the CPU time is far less disturbed by other
 * processes on a loaded machine). Transports: {@code tcp}, {@code shm}, {@code ipc} (set up over tcp,
 * then straight to the remembered ipc acceptor), {@code ipc-detour} (every session negotiated over
 * tcp first: {@code sessionj.ipc.straight=false}). docs/benchmarks.md, "ipc":
 *
 * <pre>
 * java -cp sj-bench/target/benchmarks.jar org.sessionj.bench.SetupProbe 400 6 tcp ipc ipc-detour
 * </pre>
 *
 * Arguments: sessions per round, rounds (the first is dropped as warm-up), transports.
 */
public final class SetupProbe {
    private SetupProbe() {
    }

    /** Runs the probe; see the class comment for the arguments. */
    public static void main(String[] args) {
        int sessions = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> transports = List.of(args).subList(2, args.length);
        Map<String, SJService> services = new LinkedHashMap<>();
        for (String transport : transports) {
            services.put(transport, service(transport));
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Map<String, List<Long>> wall = new LinkedHashMap<>();
        Map<String, List<Long>> cpu = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (String transport : transports) {
                SJService service = services.get(transport);
                long cpu0 = os.getProcessCpuTime();
                long wall0 = System.nanoTime();
                for (int i = 0; i < sessions; i++) {
                    try (SJSocket s = service.request()) {
                        s.send(1);
                        s.receiveInt();
                    }
                }
                if (round > 0) {
                    wall.computeIfAbsent(transport, k -> new ArrayList<>()).add((System.nanoTime() - wall0) / sessions / 1000);
                    cpu.computeIfAbsent(transport, k -> new ArrayList<>()).add((os.getProcessCpuTime() - cpu0) / sessions / 1000);
                }
            }
        }
        for (String transport : transports) {
            System.out.printf("%-10s µs per session: wall %s median %d | cpu %s median %d%n", transport,
                    wall.get(transport), median(wall.get(transport)), cpu.get(transport), median(cpu.get(transport)));
        }
        System.exit(0);
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    /** A server of one-message sessions on its own runtime, and a service of another runtime for it. */
    private static SJService service(String transport) {
        boolean ipc = transport.startsWith("ipc");
        SJRuntimeConfig.Builder config = SJRuntimeConfig.builder();
        if (ipc) {
            config.setupTransports("tcp").sessionTransports("ipc");
        } else {
            config.transports(transport);
        }
        SJRuntime server = SJRuntime.create(config.build());
        SJServerSocket socket = server.serverSocket(OnceServer.class, 0);
        Thread.ofPlatform().daemon().name("accepter-" + transport).start(() -> {
            while (true) {
                SJSocket s;
                try {
                    s = socket.accept();
                } catch (RuntimeException closed) {
                    return;
                }
                try (s) {
                    s.send(s.receiveInt() + 1);
                }
            }
        });
        System.setProperty("sessionj.ipc.straight", String.valueOf(!transport.equals("ipc-detour")));
        try {
            return SJRuntime.create(config.build()).service(OnceClient.class, "127.0.0.1", socket.port());
        } finally {
            System.clearProperty("sessionj.ipc.straight");
        }
    }
}
