package org.sessionj.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
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
import org.sessionj.bench.BenchProtocols.Particle;
import org.sessionj.runtime.internal.wire.RecordCodec;
import org.sessionj.runtime.internal.wire.RecordLayout;

/**
 * The first {@code messages} n-Body messages of a fresh JVM — {@code bodies} particles, a flat record
 * of four doubles — written and read back by the record codec, without a transport: what the demos'
 * timed region pays for a message kind before the JIT has compiled its path (interpreted method-handle
 * chains, their customisation, Netty's buffer code). Single shot, one fresh JVM per fork; the layout
 * and the buffer (Netty's allocator started) are made before the clock, as a session's protocol and
 * connection are before a program's first message.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(10)
@State(Scope.Benchmark)
public class RecordCodecColdBenchmark {
    @Param({"1", "20"})
    public int messages;

    @Param({"150"})
    public int bodies;

    private RecordLayout layout;
    private Particle[] particles;
    private ByteBuf buffer;

    @Setup(Level.Trial)
    public void prepare() {
        layout = RecordLayout.of(Particle.class);
        particles = new Particle[bodies];
        for (int i = 0; i < bodies; i++) {
            particles[i] = new Particle(i, -i, i * 0.5, 1.0 / bodies);
        }
        buffer = PooledByteBufAllocator.DEFAULT.buffer(256);
    }

    @TearDown(Level.Trial)
    public void release() {
        buffer.release();
    }

    /** Writes and reads back {@code messages} messages; returns the last one read. */
    @Benchmark
    public Object firstMessages() throws Exception {
        Object[] back = null;
        for (int m = 0; m < messages; m++) {
            buffer.clear();
            RecordCodec.writeArray(buffer, layout, particles);
            back = RecordCodec.readArray(buffer, layout);
        }
        return back;
    }
}
