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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.PingClient;
import org.sessionj.bench.BenchProtocols.PingServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.ipc.IpcTransport;

/**
 * Round trip of one {@code int} over the cross-process shared-memory transport ({@code ipc}), both
 * ends in this JVM on platform threads (the transport does not know: it maps the memory and rings the
 * doorbells as between two processes). Run it together with {@link TcpPingPongBenchmark}'s tcp rows,
 * so that the ratios come from one run:
 *
 * <pre>
 * java -jar sj-bench/target/benchmarks.jar 'IpcPingPong|TcpPingPongBenchmark.(sjTcp|socket)'
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class IpcPingPongBenchmark {

    /** The transport's bare connection at both ends, echo on its own thread. */
    @State(Scope.Thread)
    public static class Bare {
        ConnectionAcceptor acceptor;
        Connection client;
        Connection server;
        Thread echo;
        int next;

        @Setup(Level.Trial)
        public void open() throws IOException {
            IpcTransport transport = new IpcTransport();
            acceptor = transport.listen(0);
            client = transport.connect("localhost", acceptor.port(), TimeUnit.SECONDS.toNanos(10));
            server = acceptor.accept(TimeUnit.SECONDS.toNanos(10));
            echo = Thread.ofPlatform().daemon().name("ipc-echo").start(() -> {
                try {
                    while (true) {
                        server.write(server.read(-1));
                    }
                } catch (IOException closed) {
                    // the benchmark is over
                }
            });
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            client.close();
            echo.join(10_000);
            server.close();
            acceptor.close();
        }
    }

    /** An SJ session ({@code cbegin.![!<int>.?(int)]*}) set up over tcp and moved to ipc, echo on its own thread. */
    @State(Scope.Thread)
    public static class Session {
        SJServerSocket server;
        SJSocket socket;
        Thread echo;
        int next;

        @Setup(Level.Trial)
        public void open() {
            SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().setupTransports("tcp")
                    .sessionTransports("ipc").build());
            server = runtime.serverSocket(PingServer.class, 0);
            echo = Thread.ofPlatform().daemon().name("ipc-session-echo").start(() -> {
                try (SJSocket s = server.accept()) {
                    while (s.inwhile()) {
                        s.send(s.receiveInt() + 1);
                    }
                }
            });
            socket = runtime.service(PingClient.class, "127.0.0.1", server.port()).request();
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            socket.outwhile(false);
            socket.close();
            echo.join(10_000);
            server.close();
        }
    }

    @Benchmark
    public int sjIpcConnection(Bare s) throws IOException {
        s.client.write(s.client.alloc().buffer(4).writeInt(s.next++));
        var reply = s.client.read(-1);
        try {
            return reply.readInt();
        } finally {
            reply.release();
        }
    }

    @Benchmark
    public int sjIpcSession(Session s) {
        s.socket.outwhile(true);
        s.socket.send(s.next++ & 0xffff); // as in TcpPingPongBenchmark.sjTcpSession
        return s.socket.receiveInt();
    }
}
