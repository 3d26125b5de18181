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
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.spi.Connection;
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
        EchoConnections pair;
        Connection client;
        int next;

        @Setup(Level.Trial)
        public void open() throws IOException {
            pair = new EchoConnections(new IpcTransport(), "localhost", "ipc-echo");
            client = pair.client;
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            pair.close();
        }
    }

    /** An SJ session ({@code cbegin.![!<int>.?(int)]*}) set up over tcp and moved to ipc, echo on its own thread. */
    @State(Scope.Thread)
    public static class Session {
        EchoSession session;
        SJSocket socket;
        int next;

        @Setup(Level.Trial)
        public void open() {
            session = new EchoSession(SJRuntime.create(SJRuntimeConfig.builder().setupTransports("tcp")
                    .sessionTransports("ipc").build()), "ipc-session-echo");
            socket = session.socket;
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            session.close();
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
