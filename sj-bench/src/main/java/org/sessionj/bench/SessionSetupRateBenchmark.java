package org.sessionj.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceClient;
import org.sessionj.bench.BenchProtocols.OnceServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * Session set-up rate in one JVM (issue 15; Kilim's actor creation rate is the yardstick): every
 * benchmark thread requests whole in-JVM sessions ({@code cbegin.!<int>.?(int)}: request, type
 * check, one int each way, close) from its own server socket, whose accepter thread serves them
 * one after the other. Throughput across the threads, sessions per second.
 *
 * <pre>
 * java -jar sj-bench/target/benchmarks.jar SessionSetupRate -f 1 -wi 3 -i 5 -t 4
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(4)
public class SessionSetupRateBenchmark {

    /** One server socket per benchmark thread, its accepter loop on a platform thread. */
    @State(Scope.Thread)
    public static class Server {
        SJServerSocket server;
        SJService service;
        Thread accepter;

        @Setup(Level.Trial)
        public void open() {
            SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
            server = runtime.serverSocket(OnceServer.class, 0);
            accepter = Thread.ofPlatform().daemon().name("accepter").start(() -> {
                while (true) {
                    SJSocket s;
                    try {
                        s = server.accept();
                    } catch (RuntimeException closed) {
                        return;
                    }
                    try (s) {
                        s.send(s.receiveInt() + 1);
                    }
                }
            });
            service = runtime.service(OnceClient.class, "localhost", server.port());
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            server.close();
            accepter.join(10_000);
        }
    }

    @Benchmark
    public int wholeInJvmSession(Server s) {
        try (SJSocket socket = s.service.request()) {
            socket.send(1);
            return socket.receiveInt();
        }
    }
}
