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
 * <p>Argument: the transport, {@code shm} (default) or {@code tcp}.
 */
public final class ColdStart {
    private ColdStart() {
    }

    /** Runs two sessions and prints the milliseconds of each. */
    public static void main(String[] args) throws InterruptedException {
        String transport = args.length > 0 ? args[0] : "shm";
        long start = System.nanoTime();
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports(transport).build());
        double first = session(runtime, start);
        double second = session(runtime, System.nanoTime());
        System.out.printf("cold-start %s first-session-ms %.2f second-session-ms %.2f%n", transport, first, second);
    }

    private static double session(SJRuntime runtime, long start) throws InterruptedException {
        try (SJServerSocket server = runtime.serverSocket(OnceServer.class, 0)) {
            Thread accepter = Thread.ofPlatform().start(() -> {
                try (SJSocket s = server.accept()) {
                    s.send(s.receiveInt() + 1);
                }
            });
            try (SJSocket s = runtime.service(OnceClient.class, "localhost", server.port()).request()) {
                s.send(1);
                if (s.receiveInt() != 2) {
                    throw new IllegalStateException("wrong answer");
                }
            }
            accepter.join();
        }
        return (System.nanoTime() - start) / 1e6;
    }
}
