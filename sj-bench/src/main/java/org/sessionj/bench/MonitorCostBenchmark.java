package org.sessionj.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
import org.openjdk.jmh.annotations.Warmup;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.IntStream;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The session layer's own cost per action, with no peer thread: one {@code outwhile(true)} and one
 * {@code send(int)} of a {@code ![!<int>]*} session into a transport that discards frames, with the
 * monitor on and off, against writing the same 7 bytes into a pooled buffer by hand.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MonitorCostBenchmark {

    /** A session into the sink. */
    @State(Scope.Thread)
    public static class Monitored {
        SJSocket socket;
        int next;

        boolean monitor() {
            return true;
        }

        @Setup(Level.Trial)
        public void open() {
            socket = SJRuntime.create(SJRuntimeConfig.builder().transports("sink").monitor(monitor()).build())
                    .service(IntStream.class, "sink", 1).request();
        }
    }

    /** The same without the monitor. */
    @State(Scope.Thread)
    public static class Unmonitored extends Monitored {
        @Override
        boolean monitor() {
            return false;
        }
    }

    /** A pooled buffer written by hand and released every 64 KiB, like a batch. */
    @State(Scope.Thread)
    public static class Raw {
        ByteBuf buffer;
        int next;

        @Setup(Level.Trial)
        public void open() {
            buffer = ByteBufAllocator.DEFAULT.buffer(256);
        }
    }

    @Benchmark
    public void sessionMonitorOn(Monitored state) {
        state.socket.outwhile(true);
        state.socket.send(state.next++);
    }

    @Benchmark
    public void sessionMonitorOff(Unmonitored state) {
        state.socket.outwhile(true);
        state.socket.send(state.next++);
    }

    @Benchmark
    public void handWrittenBytes(Raw state) {
        ByteBuf b = state.buffer;
        b.writeByte(0x31).writeByte(1).writeByte(0x01).writeInt(state.next++);
        if (b.readableBytes() >= 64 * 1024) {
            b.release();
            state.buffer = ByteBufAllocator.DEFAULT.buffer(256);
        }
    }
}
