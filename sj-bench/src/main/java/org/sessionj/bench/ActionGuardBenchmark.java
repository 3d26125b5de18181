package org.sessionj.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of the misuse detection every session action pays (ActionGuard's enter/exit in sj-runtime): an
 * acquire load of the socket's "thread inside" field, a release store of the current thread, and a
 * release store of null after (and, since adv18 A13, a plain store of the owner thread:
 * {@link #actionWithGuardAndOwner}); against the same with a compare-and-set (the exact variant, not
 * used), and against nothing. The whole session layer with it is {@link MonitorCostBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ActionGuardBenchmark {
    private static final VarHandle INSIDE;

    static {
        try {
            INSIDE = MethodHandles.lookup().findVarHandle(ActionGuardBenchmark.Guarded.class, "inside", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A socket's guard fields and a little state an action changes. */
    @State(Scope.Thread)
    public static class Guarded {
        Thread inside;
        /** The thread that entered an action last (adv18 A13: a transport's timer asks whether it ended). */
        Thread owner;
        int state;
    }

    @Benchmark
    public int actionWithGuard(Guarded g) {
        Thread current = Thread.currentThread();
        Thread other = (Thread) INSIDE.getAcquire(g);
        if (other != null && other != current) {
            throw new IllegalStateException("concurrent use");
        }
        INSIDE.setRelease(g, current);
        try {
            return ++g.state;
        } finally {
            INSIDE.setRelease(g, null);
        }
    }

    /** The guard as sj-runtime has it since adv18 A13: the entry also stores the owner (a plain store). */
    @Benchmark
    public int actionWithGuardAndOwner(Guarded g) {
        Thread current = Thread.currentThread();
        Thread other = (Thread) INSIDE.getAcquire(g);
        if (other != null && other != current) {
            throw new IllegalStateException("concurrent use");
        }
        INSIDE.setRelease(g, current);
        g.owner = current;
        try {
            return ++g.state;
        } finally {
            INSIDE.setRelease(g, null);
        }
    }

    @Benchmark
    public int actionWithCompareAndSetGuard(Guarded g) {
        Thread current = Thread.currentThread();
        if (!INSIDE.compareAndSet(g, null, current) && INSIDE.getAcquire(g) != current) {
            throw new IllegalStateException("concurrent use");
        }
        try {
            return ++g.state;
        } finally {
            INSIDE.setRelease(g, null);
        }
    }

    @Benchmark
    public int actionWithoutGuard(Guarded g) {
        return ++g.state;
    }
}
