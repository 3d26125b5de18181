package org.sessionj.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.PingClient;
import org.sessionj.bench.BenchProtocols.PingServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * One server, {@code sessions} open in-JVM sessions, one of them active at a time: a round trip
 * ({@code outwhile(true)}, {@code send(int)}, {@code receiveInt()}) on the next session in turn,
 * served either by <b>one thread and a selector</b> ({@code server=selector}) or by <b>a virtual thread
 * per session</b> ({@code server=threads}). The other sessions stay registered and idle, so the figure
 * shows what a server pays per request for the sessions it holds: a selector that scanned its sessions
 * would grow with {@code sessions}; the ready queue does not.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class SelectorScaleBenchmark {

    @Param({"100", "10000"})
    public int sessions;

    @Param({"selector", "threads"})
    public String server;

    /**
     * {@code shm}: in-JVM sessions; {@code tcp}: over loopback TCP on the event loops (the default
     * {@code sessionj.tcp.io}); {@code tcp-blocking}: over TCP with {@code sessionj.tcp.io=blocking}
     * (each session's socket read by its own thread): what the blocking mode costs a server holding
     * many sessions (docs/decisions.md, "Blocking TCP").
     */
    @Param({"shm"})
    public String transport;

    private SJServerSocket serverSocket;
    private final List<SJSocket> clients = new ArrayList<>();
    private Thread selectorThread;
    private int next;
    private int value;

    @Setup(Level.Trial)
    public void open() throws Exception {
        System.setProperty("sessionj.tcp.io", transport.equals("tcp-blocking") ? "blocking" : "eventloop");
        long start = System.nanoTime();
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder()
                .transports(transport.startsWith("tcp") ? "tcp" : transport).build());
        serverSocket = runtime.serverSocket(PingServer.class, 0);
        List<CompletableFuture<SJSocket>> requests = new ArrayList<>();
        for (int k = 0; k < sessions; k++) {
            requests.add(CompletableFuture.supplyAsync(
                    () -> runtime.service(PingClient.class, "localhost", serverSocket.port()).request(),
                    r -> Thread.ofVirtual().start(r)));
        }
        List<SJSocket> accepted = new ArrayList<>();
        for (int k = 0; k < sessions; k++) {
            accepted.add(serverSocket.accept(Duration.ofSeconds(60)));
        }
        for (CompletableFuture<SJSocket> request : requests) {
            clients.add(request.get(60, TimeUnit.SECONDS));
        }
        if (server.equals("selector")) {
            selectorThread = Thread.ofPlatform().daemon().start(() -> serveWithSelector(accepted));
        } else {
            for (SJSocket s : accepted) {
                Thread.ofVirtual().start(() -> echo(s));
            }
        }
        long setUp = System.nanoTime() - start;
        System.gc();
        Runtime jvm = Runtime.getRuntime();
        // Not a JMH figure: what holding the sessions costs (set-up time, platform threads, heap after a GC).
        System.out.printf("%n[%s %s %d sessions] opened in %d ms; %d platform threads live; heap used %d MiB%n",
                transport, server, sessions, TimeUnit.NANOSECONDS.toMillis(setUp),
                java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount(),
                (jvm.totalMemory() - jvm.freeMemory()) >> 20);
    }

    private static void serveWithSelector(List<SJSocket> accepted) {
        try (SJSelector selector = SJSelector.open()) {
            for (SJSocket s : accepted) {
                selector.register(s);
            }
            int open = accepted.size();
            while (open > 0) {
                SJSocket s = selector.select();
                if (s.inwhile()) {
                    s.send(s.receiveInt() + 1);
                } else {
                    selector.deregister(s);
                    s.close();
                    open--;
                }
            }
        }
    }

    private static void echo(SJSocket s) {
        try (s) {
            while (s.inwhile()) {
                s.send(s.receiveInt() + 1);
            }
        }
    }

    /** One request on the next session in turn, through a server holding all of them. */
    @Benchmark
    public int roundTrip() {
        SJSocket c = clients.get(next);
        next = next + 1 == clients.size() ? 0 : next + 1;
        c.outwhile(true);
        c.send(value);
        value = c.receiveInt();
        return value;
    }

    @TearDown(Level.Trial)
    public void close() throws InterruptedException {
        for (SJSocket c : clients) {
            c.outwhile(false);
            c.close();
        }
        clients.clear();
        if (selectorThread != null) {
            selectorThread.join(60_000);
        }
        serverSocket.close();
    }
}
