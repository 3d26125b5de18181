package org.sessionj.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import org.sessionj.bench.BenchProtocols.Particle;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.RecordCodec;
import org.sessionj.runtime.internal.wire.RecordLayout;

/**
 * The first n-Body messages of a fresh JVM through the record codec alone (issue 15, the demos' timed
 * region): {@code BODIES} particles — a flat record of four doubles — written and read back
 * {@code MESSAGES} times, before the JIT has compiled that path (interpreted method-handle chains and
 * their customisation, Netty's buffer code). Prints the main thread's CPU time of the first message and
 * of all of them ({@code first-ms}, {@code all-ms}): on a machine shared with other processes the thread's
 * CPU varies far less than wall time. The layout and a pooled buffer (Netty's allocator started) are
 * made before, as a session's protocol and connection are before a program's first message. With
 * {@code WARMUP} > 0, that many zero-valued particles go through the codec first (timed apart,
 * {@code warmup-ms}): what warming a protocol's codec when the protocol is compiled would move out of
 * the first messages; with {@code WARMUP} = {@code prime}, {@link RecordCodec#prime} does it, as a session
 * opened over a wire now does before the program's first message. Run it in fresh JVMs, e.g.
 * {@code for i in 1 2 3 4 5; do java -cp sj-bench/target/benchmarks.jar org.sessionj.bench.RecordCodecCold 20 150 0; done}.
 *
 * <p>Arguments: {@code MESSAGES} (default 20), {@code BODIES} (default 150), {@code WARMUP} (default 0; a number or {@code prime}).
 */
public final class RecordCodecCold {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private RecordCodecCold() {
    }

    /** Runs once; see the class comment for the arguments and the output. */
    public static void main(String[] args) throws MalformedInputException {
        int messages = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int bodies = args.length > 1 ? Integer.parseInt(args[1]) : 150;
        boolean prime = args.length > 2 && args[2].equals("prime");
        int warmup = args.length > 2 && !prime ? Integer.parseInt(args[2]) : 0;
        RecordLayout layout = RecordLayout.of(Particle.class);
        Particle[] particles = new Particle[bodies];
        for (int i = 0; i < bodies; i++) {
            particles[i] = new Particle(i, -i, i * 0.5, 1.0 / bodies);
        }
        ByteBuf buffer = PooledByteBufAllocator.DEFAULT.buffer(256);
        long warmupNanos = 0;
        if (warmup > 0) {
            Particle[] zeros = new Particle[warmup];
            Arrays.fill(zeros, new Particle(0, 0, 0, 0));
            ByteBuf scratch = Unpooled.buffer(256);
            long start = THREADS.getCurrentThreadCpuTime();
            RecordCodec.writeArray(new ByteBufFrame(scratch), layout, zeros);
            RecordCodec.readArray(new ByteBufFrame(scratch), layout);
            warmupNanos = THREADS.getCurrentThreadCpuTime() - start;
        }
        if (prime) {
            // What a session opened over a wire now does before the program's first message (CodecPriming).
            long primeStart = THREADS.getCurrentThreadCpuTime();
            RecordCodec.prime(layout, PooledByteBufAllocator.DEFAULT);
            warmupNanos = THREADS.getCurrentThreadCpuTime() - primeStart;
        }
        ByteBufFrame frame = new ByteBufFrame(buffer);
        long first = 0;
        long start = THREADS.getCurrentThreadCpuTime();
        Object[] back = null;
        for (int m = 0; m < messages; m++) {
            buffer.clear();
            RecordCodec.writeArray(frame, layout, particles);
            back = RecordCodec.readArray(frame, layout);
            if (m == 0) {
                first = THREADS.getCurrentThreadCpuTime() - start;
            }
        }
        long all = THREADS.getCurrentThreadCpuTime() - start;
        if (back == null || back.length != bodies || !back[bodies - 1].equals(particles[bodies - 1])) {
            throw new IllegalStateException("the codec did not give the particles back");
        }
        System.out.printf(Locale.ROOT, "messages %d bodies %d warmup %s warmup-ms %.2f first-ms %.2f all-ms %.2f%n",
                messages, bodies, prime ? "prime" : warmup, warmupNanos / 1e6, first / 1e6, all / 1e6);
        buffer.release();
    }
}
