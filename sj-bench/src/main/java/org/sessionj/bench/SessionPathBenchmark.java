package org.sessionj.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jctools.queues.SpscUnboundedArrayQueue;
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
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.PingClient;
import org.sessionj.bench.BenchProtocols.PingServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The CPU cost of one in-JVM round trip with the thread wake-ups taken out: one thread drives both
 * ends (the requester's {@code outwhile(true)} and {@code send(int)}, the accepter's
 * {@code inwhile()}, {@code receiveInt()} and {@code send(int)}, the requester's {@code receiveInt()}),
 * against the same two messages through two bare SPSC queues. Everything a session adds to the
 * handoff under it (encoding, monitor, frame buffers) shows here without the scheduler's noise,
 * which on a loaded machine dominates {@link PingPongBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SessionPathBenchmark {

    /** Both ends of one in-JVM session, driven by the benchmark thread. */
    @State(Scope.Thread)
    public static class Loopback {
        @Param({"true", "false"})
        public boolean monitor;

        SJServerSocket server;
        SJSocket requester;
        SJSocket accepter;
        int next;

        @Setup(Level.Trial)
        public void open() {
            SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").monitor(monitor).build());
            server = runtime.serverSocket(PingServer.class, 0);
            CompletableFuture<SJSocket> accepted = CompletableFuture.supplyAsync(server::accept);
            requester = runtime.service(PingClient.class, "localhost", server.port()).request();
            accepter = accepted.join();
        }

        @TearDown(Level.Trial)
        public void close() {
            requester.outwhile(false);
            requester.close();
            accepter.inwhile();
            accepter.close();
            server.close();
        }
    }

    /** Two bare queues, one each way. */
    @State(Scope.Thread)
    public static class Queues {
        final SpscUnboundedArrayQueue<Object> there = new SpscUnboundedArrayQueue<>(16);
        final SpscUnboundedArrayQueue<Object> back = new SpscUnboundedArrayQueue<>(16);
        int next;
    }

    @Benchmark
    public int session(Loopback state) {
        SJSocket r = state.requester;
        SJSocket a = state.accepter;
        r.outwhile(true);
        r.send(state.next++ & 0xffff);
        a.inwhile();
        a.send(a.receiveInt() + 1);
        return r.receiveInt();
    }

    @Benchmark
    public int bareQueues(Queues state) {
        state.there.offer(state.next++ & 0xffff);
        state.back.offer((Integer) state.there.poll() + 1);
        return (Integer) state.back.poll();
    }
}
