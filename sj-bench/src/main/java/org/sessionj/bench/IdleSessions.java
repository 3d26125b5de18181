package org.sessionj.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.ObjectName;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceClient;
import org.sessionj.bench.BenchProtocols.OnceServer;
import org.sessionj.bench.BenchProtocols.WaitClient;
import org.sessionj.bench.BenchProtocols.WaitServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.api.SJService;

/**
 * Many idle in-JVM sessions at once (issue 15, scale): opens {@code N} sessions
 * ({@code cbegin.?(int)}), each requester parked in {@code receiveInt()} on a virtual thread of its
 * own, the accepter's end held by the program; prints the heap per session after a full GC (both
 * ends, the parked virtual thread included), then ends them all. Run by
 * {@code scripts/idle-sessions.sh} (e.g. 1,000,000 sessions with {@code -Xmx2g}: fails with an
 * {@code OutOfMemoryError} if they do not fit).
 *
 * <p>Arguments: the number of sessions (default 100,000); then, in any order, {@code warm=W} to run
 * {@code W} sessions to their end first (so that the session code is compiled, as in a server that has
 * run for a while: a parked virtual thread's stack holds its frames as they were when it parked, and
 * interpreted frames are two to three times the size of compiled ones), {@code histogram} to print the
 * heap's largest classes while the sessions are idle, {@code stack} to print one parked requester's stack,
 * {@code message} for sessions {@code cbegin.!<int>.?(int)} whose requester sends an int (which the
 * accepter receives) before it waits, so each direction has carried a frame of the session, and
 * {@code bound=B} to fail (exit status 1, before the sessions end) if the sessions retain more than
 * {@code B} bytes each: a regression check for a small run, with a generous bound, not a timing.
 */
public final class IdleSessions {
    /** Sessions ended before waiting for their requesters to finish. */
    private static final int END_BATCH = 10_000;

    private IdleSessions() {
    }

    /** Opens the sessions, measures, ends them. */
    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 100_000;
        List<String> options = List.of(args).subList(Math.min(1, args.length), args.length);
        boolean histogram = options.contains("histogram");
        int warm = options.stream().filter(o -> o.startsWith("warm=")).mapToInt(o -> Integer.parseInt(o.substring(5)))
                .findFirst().orElse(0);
        boolean message = options.contains("message");
        long bound = options.stream().filter(o -> o.startsWith("bound=")).mapToLong(o -> Long.parseLong(o.substring(6)))
                .findFirst().orElse(-1);
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        AtomicInteger completed = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (SJServerSocket server = runtime.serverSocket(message ? OnceServer.class : WaitServer.class, 0)) {
            // Opened before the baseline: the runtime's and the server socket's own memory is not the sessions'.
            SJService service = runtime.service(message ? OnceClient.class : WaitClient.class, "localhost", server.port());
            for (int i = 0; i < warm; i++) {
                Thread t = Thread.ofVirtual().start(() -> {
                    try (SJSocket s = service.request()) {
                        if (message) {
                            s.send(1);
                        }
                        s.receiveInt();
                    }
                });
                try (SJSocket s = server.accept()) {
                    if (message) {
                        s.receiveInt();
                    }
                    s.send(42);
                }
                t.join();
            }
            long before = usedHeapAfterGc();
            long start = System.nanoTime();
            List<SJSocket> accepted = new ArrayList<>(sessions);
            Thread[] requesters = new Thread[sessions];
            for (int i = 0; i < sessions; i++) {
                requesters[i] = Thread.ofVirtual().start(() -> {
                    try (SJSocket s = service.request()) {
                        if (message) {
                            s.send(1);
                        }
                        if (s.receiveInt() == 42) {
                            completed.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                });
                SJSocket s = server.accept();
                if (message) {
                    s.receiveInt();
                }
                accepted.add(s);
            }
            double openSeconds = (System.nanoTime() - start) / 1e9;
            // Every requester parked in receiveInt: all sessions open and idle at once.
            for (Thread t : requesters) {
                while (t.getState() != Thread.State.WAITING && t.isAlive()) {
                    Thread.sleep(1);
                }
            }
            // Idle for a while: the in-JVM transport lets go of the spare frames of connections whose
            // reader has been parked for a tick of its orphan watch (half sessionj.shm.orphanTimeout, 1 s).
            Thread.sleep(2500);
            long during = usedHeapAfterGc();
            double perSession = (during - before) / (double) sessions;
            System.out.printf("idle-sessions %d%s warm %d bytes-per-session %.0f heap-MiB %.0f max-heap-MiB %d open-s %.1f%n",
                    sessions, message ? " message" : "", warm, perSession, during / 1048576.0,
                    Runtime.getRuntime().maxMemory() >> 20, openSeconds);
            if (histogram) {
                printHistogram(sessions);
            }
            if (options.contains("stack")) {
                for (StackTraceElement e : requesters[sessions - 1].getStackTrace()) {
                    System.out.println("  at " + e);
                }
            }
            if (completed.get() != 0 || failure.get() != null) {
                throw new IllegalStateException("a session ended early", failure.get());
            }
            if (bound >= 0 && perSession > bound) {
                System.out.printf("idle-sessions: FAILED: %.0f bytes per idle session, more than bound=%d%n", perSession, bound);
                System.exit(1);
            }
            // Ended a batch at a time: the answers of a million sessions sent at once would be a million
            // frames in flight (~300 MB) before their requesters run; a server ends its sessions as they
            // finish, not all in one instant.
            for (int from = 0; from < sessions; from += END_BATCH) {
                int to = Math.min(sessions, from + END_BATCH);
                for (int i = from; i < to; i++) {
                    SJSocket s = accepted.set(i, null);
                    s.send(42);
                    s.close();
                }
                for (int i = from; i < to; i++) {
                    requesters[i].join(TimeUnit.SECONDS.toMillis(60));
                    requesters[i] = null;
                }
            }
        }
        if (failure.get() != null || completed.get() != sessions) {
            throw new IllegalStateException(completed.get() + " of " + sessions + " sessions completed", failure.get());
        }
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The heap's largest classes (jcmd GC.class_histogram), with bytes per session. */
    private static void printHistogram(int sessions) throws Exception {
        String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        String[] lines = text.split("\n");
        for (int i = 0; i < Math.min(lines.length, 28); i++) {
            String[] cols = lines[i].trim().split("\\s+");
            String perSession = "";
            if (cols.length >= 4 && cols[2].matches("\\d+")) {
                perSession = String.format("  %6.1f B/session", Long.parseLong(cols[2]) / (double) sessions);
            }
            System.out.println(lines[i] + perSession);
        }
    }
}
