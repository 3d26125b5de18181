package org.sessionj.bench;

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
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.BinTree;
import org.sessionj.bench.BenchProtocols.TreeClient;
import org.sessionj.bench.BenchProtocols.TreeServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * Paper 000 §6.1 / Fig. 14c: a client and a server in one JVM exchange (and update) a binary tree
 * {@code length} times per session, with {@code send} (a copy each way) or {@code pass} (the
 * reference). One benchmark operation is one whole session, initiation included.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class BinaryTreeBenchmark {
    @Param({"0", "1", "2", "4", "8"})
    public int depth;

    @Param({"1", "1000"})
    public int length;

    @Param({"send", "pass"})
    public String mode;

    private SJServerSocket server;
    private SJService service;
    private Thread peer;
    private BinTree tree;

    @Setup(Level.Trial)
    public void open() {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        boolean pass = mode.equals("pass");
        server = runtime.serverSocket(TreeServer.class, 0);
        peer = Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                SJSocket s;
                try {
                    s = server.accept();
                } catch (RuntimeException closed) {
                    return;
                }
                try (s) {
                    while (s.inwhile()) {
                        BinTree t = s.receive();
                        t.value++;
                        if (pass) {
                            s.pass(t);
                        } else {
                            s.send(t);
                        }
                    }
                }
            }
        });
        service = runtime.service(TreeClient.class, "localhost", server.port());
        tree = BinTree.of(depth);
    }

    @TearDown(Level.Trial)
    public void close() throws InterruptedException {
        server.close();
        peer.join();
    }

    @Benchmark
    public int session() {
        boolean pass = mode.equals("pass");
        BinTree t = tree;
        try (SJSocket s = service.request()) {
            for (int i = 0; s.outwhile(i < length); i++) {
                if (pass) {
                    s.pass(t);
                } else {
                    s.send(t);
                }
                t = s.receive();
            }
        }
        tree = t;
        return t.value;
    }
}
