package org.sessionj.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Exchanger;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.support.Frames;
import org.sessionj.transport.shm.ShmTransport;

/**
 * One int there and back between two threads of one JVM: an SJ session on the in-JVM transport
 * (monitor on and off) against a bare JCTools SPSC handoff with the same wait strategy and against
 * {@link Exchanger} (one exchange per operation, and a whole round trip of two exchanges,
 * {@code *exchangerRoundTrip}); then the same with both ends on virtual threads ({@code virtual*}: one
 * invocation runs {@link #ROUNDS} round trips on a virtual thread that the benchmark thread waits
 * for, so the figure is per round trip).
 *
 * <p>The wait strategy ({@code sessionj.shm.spins}, {@code sessionj.shm.yields}) is the JVM's:
 * {@code -jvmArgsAppend -Dsessionj.shm.yields=20} measures another.
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

        Thread.Builder threads() {
            return Thread.ofPlatform().daemon();
        }

        boolean monitor() {
            return true;
        }

        @Setup(Level.Trial)
        public void open() {
            SJRuntime runtime = runtime(monitor());
            server = runtime.serverSocket(PingServer.class, 0);
            echo = threads().start(() -> {
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

        Thread.Builder threads() {
            return Thread.ofPlatform().daemon();
        }

        @Setup(Level.Trial)
        public void open() {
            echo = threads().start(() -> {
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

        Thread.Builder threads() {
            return Thread.ofPlatform().daemon();
        }

        @Setup(Level.Trial)
        public void open() {
            partner = threads().start(() -> {
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

    /**
     * An {@link Exchanger} used for a whole round trip: the request goes over in one exchange and the
     * reply comes back in a second one, so that the caller waits for the answer to its own value.
     * {@link #exchanger} is one exchange per operation, which returns the partner's answer to the
     * <em>previous</em> value: one rendezvous (one thread switch) where a round trip has two.
     */
    @State(Scope.Benchmark)
    public static class ExchangeRoundTrip {
        final Exchanger<Integer> exchanger = new Exchanger<>();
        Thread partner;
        int next;

        Thread.Builder threads() {
            return Thread.ofPlatform().daemon();
        }

        @Setup(Level.Trial)
        public void open() {
            partner = threads().start(() -> {
                try {
                    while (true) {
                        int value = exchanger.exchange(0);
                        if (value < 0) {
                            return;
                        }
                        exchanger.exchange(value + 1);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        /** One round trip: {@code value} there, its answer back. */
        int roundTrip(int value) throws InterruptedException {
            exchanger.exchange(value);
            return exchanger.exchange(0);
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            exchanger.exchange(-1);
            partner.join();
        }
    }

    /** The same, the partner on a virtual thread. */
    @State(Scope.Benchmark)
    public static class VirtualExchangeRoundTrip extends ExchangeRoundTrip {
        @Override
        Thread.Builder threads() {
            return Thread.ofVirtual();
        }
    }

    /**
     * {@link VirtualSjSession} with a receive timeout ({@code sessionj.receiveTimeout}, one minute): a
     * timed wait, which on a virtual thread yields like an untimed one before it parks.
     */
    @State(Scope.Benchmark)
    public static class VirtualSjSessionTimed extends VirtualSjSession {
        @Override
        SJRuntime runtime(boolean monitor) {
            System.setProperty("sessionj.shm.orphanTimeout", "10m");
            return SJRuntime.create(SJRuntimeConfig.builder().transports("shm").monitor(monitor)
                    .defaultTimeout(java.time.Duration.ofMinutes(1)).build());
        }
    }

    /**
     * The in-JVM transport's bare connection at both ends, echo on a virtual thread: an {@code int} in a
     * frame there, the same frame's int plus one back, with the session layer's frame calls
     * ({@link Frames}: recycled frames, no Netty buffer) and none of the session's own work. Splits what
     * {@link #virtualSjSession} adds to {@link #virtualBareSpscHandoff} between the transport and the
     * session layer.
     */
    @State(Scope.Benchmark)
    public static class VirtualShmConnection {
        Connection client;
        Connection server;
        ConnectionAcceptor acceptor;
        Thread echo;
        int next;

        @Setup(Level.Trial)
        public void open() throws IOException {
            System.setProperty("sessionj.shm.orphanTimeout", "10m");
            Transport shm = new ShmTransport();
            acceptor = shm.listen(0);
            client = shm.connect("localhost", acceptor.port(), TimeUnit.SECONDS.toNanos(10));
            server = acceptor.accept(TimeUnit.SECONDS.toNanos(10));
            echo = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        Frame in = Frames.read(server, -1);
                        int value = in.readInt();
                        in.release();
                        Frames.write(server, Frames.newFrame(server, 256).writeInt(value + 1));
                    }
                } catch (IOException closed) {
                    // the benchmark is over
                }
            });
        }

        /** One round trip on the client's end. */
        int roundTrip(int value) {
            try {
                Frames.write(client, Frames.newFrame(client, 256).writeInt(value));
                Frame in = Frames.read(client, -1);
                int reply = in.readInt();
                in.release();
                return reply;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException, IOException {
            client.close();
            echo.join(10_000);
            server.close();
            acceptor.close();
        }
    }

    /** Round trips per invocation of the virtual-thread benchmarks. */
    static final int ROUNDS = 1000;

    /**
     * An SJ session whose echo runs on a virtual thread (the caller's rounds do too).
     *
     * <p>Every invocation runs its rounds on a new virtual thread, which ends when they are done: between
     * two invocations the requester's end has no live thread. The in-JVM transport takes an end whose
     * last thread ended for gone after {@code sessionj.shm.orphanTimeout} (2 s by default), so a pause of
     * the harness longer than that between iterations (a loaded machine, a profiler's start) failed
     * the session, and every later invocation measured a failing thread instead of round trips. The
     * orphan timeout is set to ten minutes here (the watch still runs, and costs what it costs a user,
     * on every park), and {@link #onVirtualThread} rethrows what the rounds threw.
     */
    @State(Scope.Benchmark)
    public static class VirtualSjSession extends SjSession {
        @Override
        Thread.Builder threads() {
            return Thread.ofVirtual();
        }

        @Override
        SJRuntime runtime(boolean monitor) {
            // Read when each in-JVM connection is made: set before the session is requested.
            System.setProperty("sessionj.shm.orphanTimeout", "10m");
            return super.runtime(monitor);
        }
    }

    /** Two bare SPSC channels, the echo on a virtual thread. */
    @State(Scope.Benchmark)
    public static class VirtualSpsc extends Spsc {
        @Override
        Thread.Builder threads() {
            return Thread.ofVirtual();
        }
    }

    /** An {@link Exchanger}, the partner on a virtual thread. */
    @State(Scope.Benchmark)
    public static class VirtualExchange extends Exchange {
        @Override
        Thread.Builder threads() {
            return Thread.ofVirtual();
        }
    }

    /**
     * Runs {@link #ROUNDS} rounds on a new virtual thread and waits for it; the last reply. What the
     * rounds throw is rethrown, so that a broken session fails the benchmark instead of being timed.
     */
    static int onVirtualThread(IntSupplier round) throws InterruptedException {
        int[] last = new int[1];
        Throwable[] failure = new Throwable[1];
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                int r = 0;
                for (int i = 0; i < ROUNDS; i++) {
                    r = round.getAsInt();
                }
                last[0] = r;
            } catch (RuntimeException | Error e) {
                failure[0] = e;
            }
        });
        t.join();
        if (failure[0] != null) {
            throw new IllegalStateException("the rounds on the virtual thread failed", failure[0]);
        }
        return last[0];
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int virtualSjSession(VirtualSjSession state) throws InterruptedException {
        SJSocket s = state.socket;
        return onVirtualThread(() -> {
            s.outwhile(true);
            s.send(state.next++ & 0xffff);
            return s.receiveInt();
        });
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int virtualBareSpscHandoff(VirtualSpsc state) throws InterruptedException {
        return onVirtualThread(() -> {
            state.there.offer(state.next++ & 0xffff);
            return (Integer) state.back.take();
        });
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int virtualShmConnection(VirtualShmConnection state) throws InterruptedException {
        return onVirtualThread(() -> state.roundTrip(state.next++ & 0xffff));
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int virtualExchanger(VirtualExchange state) throws InterruptedException {
        return onVirtualThread(() -> {
            try {
                return state.exchanger.exchange(state.next++ & 0xffff);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int virtualSjSessionWithReceiveTimeout(VirtualSjSessionTimed state) throws InterruptedException {
        SJSocket s = state.socket;
        return onVirtualThread(() -> {
            s.outwhile(true);
            s.send(state.next++ & 0xffff);
            return s.receiveInt();
        });
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int virtualExchangerRoundTrip(VirtualExchangeRoundTrip state) throws InterruptedException {
        return onVirtualThread(() -> {
            try {
                return state.roundTrip(state.next++ & 0xffff);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Benchmark
    public int exchangerRoundTrip(ExchangeRoundTrip state) throws InterruptedException {
        return state.roundTrip(state.next++ & 0xffff);
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
