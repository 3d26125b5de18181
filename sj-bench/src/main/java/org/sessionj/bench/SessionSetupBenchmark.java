package org.sessionj.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceClient;
import org.sessionj.bench.BenchProtocols.OnceServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.tcp.TcpTransport;

/**
 * Whole-session set-up: a short session ({@code cbegin.!<int>.?(int)}: negotiation, type check, one
 * round trip, close) over each transport, against opening and closing a bare {@code tcp} connection
 * (what connection caching would skip; docs/negotiation.md). Every benchmark thread has a server
 * socket and accepter thread of its own, so the same benchmark gives the time of one set-up
 * (one thread, average time) and the set-up rate across threads (issue 15's sessions per second,
 * Kilim's actor creation rate the yardstick):
 *
 * <pre>
 * java -jar sj-bench/target/benchmarks.jar 'SessionSetup.*wholeSession' -f 1 -wi 3 -i 5
 * java -jar sj-bench/target/benchmarks.jar 'SessionSetup.*wholeSession' -p transport=shm -bm thrpt -tu s -t 4
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class SessionSetupBenchmark {

    /** A server socket per benchmark thread, whose accepter thread serves one-message sessions. */
    @State(Scope.Thread)
    public static class Sessions {
        /** {@code ipc}: set up over TCP, then moved to shared memory, as between two JVMs on one host. */
        @Param({"tcp", "ipc", "shm"})
        String transport;

        SJServerSocket server;
        SJService service;
        Thread accepter;

        @Setup(Level.Trial)
        public void open() {
            SJRuntimeConfig.Builder config = SJRuntimeConfig.builder();
            SJRuntime runtime = SJRuntime.create((transport.equals("ipc")
                    ? config.setupTransports("tcp").sessionTransports("ipc") : config.transports(transport)).build());
            server = runtime.serverSocket(OnceServer.class, 0);
            accepter = startAccepter(server, "accepter");
            service = runtime.service(OnceClient.class, "127.0.0.1", server.port());
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            server.close();
            accepter.join(10_000);
        }
    }

    /** A bare {@code tcp} transport acceptor whose thread accepts and closes. */
    @State(Scope.Benchmark)
    public static class BareTcp {
        TcpTransport tcp;
        ConnectionAcceptor acceptor;
        Thread accepter;

        @Setup(Level.Trial)
        public void open() throws IOException {
            tcp = new TcpTransport();
            acceptor = tcp.listen(0);
            accepter = Thread.ofPlatform().daemon().name("bare-accepter").start(() -> {
                try {
                    while (true) {
                        acceptor.accept(-1).close();
                    }
                } catch (IOException closed) {
                    // the benchmark is over
                }
            });
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            acceptor.close();
            accepter.join(10_000);
        }
    }

    /** The floor: the hand-offs of a whole session and nothing else ({@link BareSetup}), an accepter per benchmark thread. */
    @State(Scope.Thread)
    public static class Bare {
        final BareSetup setup = new BareSetup();

        @Setup(Level.Trial)
        public void open() {
            setup.startAccepter("bare-session-accepter", false);
        }
    }

    @Benchmark
    public int bareHandoffs(Bare s) {
        return s.setup.session();
    }

    @Benchmark
    public int wholeSession(Sessions s) {
        try (SJSocket socket = s.service.request()) {
            socket.send(1);
            return socket.receiveInt();
        }
    }

    @Benchmark
    public boolean tcpConnectAndClose(BareTcp s) throws IOException {
        Connection c = s.tcp.connect("127.0.0.1", s.acceptor.port(), TimeUnit.SECONDS.toNanos(10));
        c.close();
        return c.isClosed();
    }

    /**
     * Starts a daemon thread that accepts one-message sessions on {@code server} (receive an int,
     * answer it plus one, close) until the server socket is closed.
     */
    static Thread startAccepter(SJServerSocket server, String name) {
        return startAccepter(server, name, false);
    }

    /** As {@link #startAccepter(SJServerSocket, String)}, on a virtual thread if {@code virtual}. */
    static Thread startAccepter(SJServerSocket server, String name, boolean virtual) {
        return (virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon()).name(name).start(() -> {
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
    }
}
