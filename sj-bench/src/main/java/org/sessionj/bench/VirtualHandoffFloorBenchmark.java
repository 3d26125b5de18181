package org.sessionj.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor under {@link PingPongBenchmark}'s virtual-thread rows: one {@code int} there and back
 * between two virtual threads through two one-slot mailboxes (a volatile {@code int} and a volatile
 * waiter each, no queue, no boxing, no allocation), with the waiting side's idle strategy as the
 * parameter: {@code park} parks at once (the peer's {@code LockSupport.unpark} submits it to the
 * scheduler), {@code yieldN} polls after each of up to N {@link Thread#yield()}s before parking,
 * {@code spinN} polls N times with {@link Thread#onSpinWait()} before parking. Whatever a session
 * or a queue adds comes on top of the cheapest of these; what none of them can beat is the virtual
 * threads' own switch.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class VirtualHandoffFloorBenchmark {
    private static final int EMPTY = Integer.MIN_VALUE;
    private static final int STOP = Integer.MIN_VALUE + 1;

    /** One slot, one waiter: a single producer and a single consumer. */
    static final class Mailbox {
        private volatile int value = EMPTY;
        private volatile Thread waiter;

        void put(int v) {
            value = v;
            // Volatile store then volatile load: the consumer, which stores its waiter and then reads
            // the value, sees the value or is seen here.
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }

        int take(int spins, int yields) {
            int v;
            for (int i = 0; (v = value) == EMPTY && i < spins; i++) {
                Thread.onSpinWait();
            }
            for (int i = 0; v == EMPTY && i < yields; i++) {
                Thread.yield();
                v = value;
            }
            if (v == EMPTY) {
                waiter = Thread.currentThread();
                while ((v = value) == EMPTY) {
                    LockSupport.park(this);
                }
                waiter = null;
            }
            value = EMPTY;
            return v;
        }
    }

    /** The two mailboxes and the echo's virtual thread. */
    @State(Scope.Benchmark)
    public static class Pair {
        /** How a waiting side waits: {@code park}, {@code yield<N>} or {@code spin<N>}. */
        @Param({"park", "yield20", "spin100"})
        public String idle;

        final Mailbox there = new Mailbox();
        final Mailbox back = new Mailbox();
        int spins;
        int yields;
        Thread echo;
        int next;

        @Setup(Level.Trial)
        public void open() {
            if (idle.startsWith("yield")) {
                yields = Integer.parseInt(idle.substring(5));
            } else if (idle.startsWith("spin")) {
                spins = Integer.parseInt(idle.substring(4));
            } else if (!idle.equals("park")) {
                throw new IllegalArgumentException("idle is park, yield<N> or spin<N>, found " + idle);
            }
            echo = Thread.ofVirtual().start(() -> {
                int v;
                while ((v = there.take(spins, yields)) != STOP) {
                    back.put(v + 1);
                }
            });
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            there.put(STOP);
            echo.join();
        }
    }

    @Benchmark
    @OperationsPerInvocation(PingPongBenchmark.ROUNDS)
    public int virtualMailbox(Pair state) throws InterruptedException {
        return PingPongBenchmark.onVirtualThread(() -> {
            state.there.put(state.next++ & 0xffff);
            return state.back.take(state.spins, state.yields);
        });
    }
}
