package org.sessionj.crosscheck.harness;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.runtime.SJRuntime;

/**
 * Runs the two sides of a generated session on two threads of this JVM over the runtime's process-wide
 * configuration (the cross-check configures the in-JVM transport and a receive timeout), and reports
 * how each side ended. A side still running at the deadline is interrupted, its server socket closed,
 * and counted as {@link Outcome.Kind#TIMEOUT}.
 */
public final class SessionRunner {
    /** Sessions closed incomplete, by the thread that closed them (each run has threads of its own). */
    private static final Map<Thread, SJProtocolViolationException> ABANDONED = new ConcurrentHashMap<>();

    private SessionRunner() {
    }

    /**
     * Runs {@code accepterClass.accepter(server, accepterSeed)} against
     * {@code requesterClass.requester(port, requesterSeed)}.
     *
     * @param accepterProtocol the protocol interface the server socket accepts
     * @param programIsAccepter which of the two is the program (the other is the peer), for the outcome
     */
    @SuppressWarnings("try") // the refusal listener closes the server early; the try closes it again (idempotent)
    public static Outcome run(Class<?> accepterProtocol, Class<?> accepterClass, long accepterSeed,
            Class<?> requesterClass, long requesterSeed, boolean programIsAccepter, Duration deadline) {
        MethodHandle accepter = entry(accepterClass, "accepter",
                MethodType.methodType(void.class, SJServerSocket.class, long.class));
        MethodHandle requester = entry(requesterClass, "requester",
                MethodType.methodType(void.class, int.class, long.class));
        AtomicReference<Throwable> accepterFailure = new AtomicReference<>();
        AtomicReference<Throwable> requesterFailure = new AtomicReference<>();
        // close() of an incomplete session does not throw (it is how a program abandons one on an exception
        // path): a side that ends normally after abandoning its session is a run-time violation all the same.
        SJRuntime.global().onAbandonedSession(e -> ABANDONED.putIfAbsent(Thread.currentThread(), e));
        try (SJServerSocket server = SJServerSocket.create(accepterProtocol, 0)) {
            // accept() waits on past a refused request; here the one requester's refusal is the
            // accepter's outcome too (an incompatible mutant ends both sides at once, as before).
            AtomicReference<Throwable> refused = new AtomicReference<>();
            SJRuntime.onFailedHandshake(server, e -> {
                refused.compareAndSet(null, e);
                server.close();
            });
            Thread a = Thread.ofPlatform().daemon().name("crosscheck-accepter").start(
                    () -> invoke(accepter, accepterFailure, server, accepterSeed));
            Thread r = Thread.ofPlatform().daemon().name("crosscheck-requester").start(
                    () -> invoke(requester, requesterFailure, server.port(), requesterSeed));
            long end = System.nanoTime() + deadline.toNanos();
            boolean accepterDone = join(a, end);
            boolean requesterDone = join(r, end);
            if (!accepterDone || !requesterDone) {
                a.interrupt();
                r.interrupt();
            }
            Throwable accepterAbandoned = ABANDONED.remove(a);
            Throwable requesterAbandoned = ABANDONED.remove(r);
            Outcome.End acc = accepterDone
                    ? Outcome.End.of(refused.get() != null ? refused.get() : firstOf(accepterFailure.get(), accepterAbandoned))
                    : Outcome.End.UNFINISHED;
            Outcome.End req = requesterDone ? Outcome.End.of(firstOf(requesterFailure.get(), requesterAbandoned))
                    : Outcome.End.UNFINISHED;
            return programIsAccepter ? new Outcome(acc, req) : new Outcome(req, acc);
        }
    }

    private static Throwable firstOf(Throwable thrown, Throwable abandoned) {
        return thrown != null ? thrown : abandoned;
    }

    private static MethodHandle entry(Class<?> type, String name, MethodType signature) {
        try {
            return MethodHandles.publicLookup().findStatic(type, name, signature);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the generated class " + type.getName() + " has no " + name + signature, e);
        }
    }

    private static void invoke(MethodHandle entry, AtomicReference<Throwable> failure, Object first, long seed) {
        try {
            entry.invoke(first, seed);
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    private static boolean join(Thread thread, long endNanos) {
        try {
            long left = endNanos - System.nanoTime();
            if (left > 0) {
                thread.join(Duration.ofNanos(left));
            }
            return !thread.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
