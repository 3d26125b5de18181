package org.sessionj.bench;

import java.util.concurrent.Exchanger;
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

/**
 * One int there and back between two threads of one JVM: an SJ session on the in-JVM transport
 * (monitor on and off) against a bare JCTools SPSC handoff with the same wait strategy and against
 * {@link Exchanger}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PingPongBenchmark {

    /** An SJ session whose peer echoes every int plus one. */
    @State(Scope.Benchmark)
    public static class SjSession {
        SJSocket socket;
        Thread echo;
        SJServerSocket server;
        int next;

        SJRuntime runtime(boolean monitor) {
            return SJRuntime.create(SJRuntimeConfig.builder().transports("shm").monitor(monitor).build());
        }

        boolean monitor() {
            return true;
        }

        @Setup(Level.Trial)
        public void open() {
            SJRuntime runtime = runtime(monitor());
            server = runtime.serverSocket(PingServer.class, 0);
            echo = Thread.ofPlatform().daemon().start(() -> {
                try (SJSocket s = server.accept()) {
                    while (s.inwhile()) {
                        s.send(s.receiveInt() + 1);
                    }
                }
            });
            socket = runtime.service(PingClient.class, "localhost", server.port()).request();
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            socket.outwhile(false);
            socket.close();
            echo.join();
            server.close();
        }
    }

    /** The same, with the runtime monitor switched off. */
    @State(Scope.Benchmark)
    public static class SjSessionUnmonitored extends SjSession {
        @Override
        boolean monitor() {
            return false;
        }
    }

    /** Two bare SPSC channels and an echo thread. */
    @State(Scope.Benchmark)
    public static class Spsc {
        final ParkingSpscChannel there = new ParkingSpscChannel();
        final ParkingSpscChannel back = new ParkingSpscChannel();
        static final Object STOP = new Object();
        Thread echo;
        int next;

        @Setup(Level.Trial)
        public void open() {
            echo = Thread.ofPlatform().daemon().start(() -> {
                Object value;
                while ((value = there.take()) != STOP) {
                    back.offer((Integer) value + 1);
                }
            });
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            there.offer(STOP);
            echo.join();
        }
    }

    /** An {@link Exchanger} and a partner thread. */
    @State(Scope.Benchmark)
    public static class Exchange {
        final Exchanger<Integer> exchanger = new Exchanger<>();
        Thread partner;
        int next;

        @Setup(Level.Trial)
        public void open() {
            partner = Thread.ofPlatform().daemon().start(() -> {
                int reply = 0;
                try {
                    while (true) {
                        int value = exchanger.exchange(reply);
                        if (value < 0) {
                            return;
                        }
                        reply = value + 1;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            exchanger.exchange(-1);
            partner.join();
        }
    }

    @Benchmark
    public int sjSession(SjSession state) {
        SJSocket s = state.socket;
        s.outwhile(true);
        s.send(state.next++ & 0xffff);
        return s.receiveInt();
    }

    @Benchmark
    public int sjSessionMonitorOff(SjSessionUnmonitored state) {
        SJSocket s = state.socket;
        s.outwhile(true);
        s.send(state.next++ & 0xffff);
        return s.receiveInt();
    }

    @Benchmark
    public int bareSpscHandoff(Spsc state) {
        state.there.offer(state.next++ & 0xffff);
        return (Integer) state.back.take();
    }

    @Benchmark
    public int exchanger(Exchange state) throws InterruptedException {
        return state.exchanger.exchange(state.next++ & 0xffff);
    }
}
