package org.sessionj.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.FutureTask;
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
import org.sessionj.api.Protocol;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.BinTree;
import org.sessionj.bench.BenchProtocols.TreeClient;
import org.sessionj.bench.BenchProtocols.TreeServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.TransportPreferences;

/**
 * Paper 000 §6.2, cross-transport session migration: Alice holds session (a) with Carol, Bob holds
 * session (b) with Carol, and the bulk of the traffic is {@code exchanges} binary-tree exchanges
 * between Alice and Bob. Measured: Alice's time to complete (a) once it is established, in three
 * configurations: Carol forwarding every message between Alice and Bob over TCP ({@code forward},
 * the control case); Carol delegating (a) to Bob over (b), Alice reconnected to Bob over TCP
 * ({@code delegateTcp}); the same with (a) and (b) over TCP but Alice and Bob in one JVM, so the
 * reconnection migrates the session to the in-JVM transport ({@code migrateToInJvm}).
 *
 * <pre>
 * ./mvnw -q -pl sj-bench -am package -DskipTests
 * java -jar sj-bench/target/benchmarks.jar DelegationBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class DelegationBenchmark {
    private static final TransportPreferences TCP = TransportPreferences.of(List.of("tcp"), List.of("tcp"));
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Bob as a server of the loop Carol drives (the control case: Carol forwards into it). */
    @Protocol("cbegin.?[?(org.sessionj.bench.BenchProtocols.BinTree).!<org.sessionj.bench.BenchProtocols.BinTree>]*")
    public interface ForwardedBob {
    }

    @Protocol("^(ForwardedBob)")
    public interface CarolForwarding {
    }

    /** Bob receives Carol's end of (a): paper type (2) from Bob's side. */
    @Protocol("cbegin.?(?[?(org.sessionj.bench.BenchProtocols.BinTree).!<org.sessionj.bench.BenchProtocols.BinTree>]*)")
    public interface DelegatedBob {
    }

    @Protocol("^(DelegatedBob)")
    public interface CarolDelegating {
    }

    /** How Carol lets Alice and Bob talk. */
    public enum Mode { forward, delegateTcp, migrateToInJvm }

    @State(Scope.Thread)
    public static class Scenario {
        @Param({"forward", "delegateTcp", "migrateToInJvm"})
        Mode mode;

        @Param({"0", "1", "2", "4"})
        int depth;

        @Param({"1000"})
        int exchanges;

        SJRuntime runtime;
        SJServerSocket forAlice;
        SJServerSocket forBob;
        BinTree tree;
        SJSocket alice;
        FutureTask<Void> carol;
        FutureTask<Void> bob;

        @Setup(Level.Trial)
        public void open() {
            // forward and delegateTcp: TCP only (the reconnection too). migrateToInJvm: (a) and (b)
            // over TCP by preference, the reconnection negotiated with the defaults (in-JVM first).
            runtime = SJRuntime.create((mode == Mode.migrateToInJvm ? SJRuntimeConfig.builder()
                    : SJRuntimeConfig.builder().transports("tcp")).initiationTimeout(WAIT).build());
            forAlice = runtime.serverSocket(TreeServer.class, 0, TCP);
            forBob = runtime.serverSocket(mode == Mode.forward ? CarolForwarding.class : CarolDelegating.class, 0, TCP);
            tree = BinTree.of(depth);
        }

        @Setup(Level.Invocation)
        public void establish() {
            carol = start(mode == Mode.forward ? this::forwardingCarol : this::delegatingCarol);
            bob = start(mode == Mode.forward ? this::forwardedBob : this::delegatedBob);
            alice = runtime.service(TreeClient.class, "localhost", forAlice.port(), TCP).request();
        }

        private void forwardingCarol() {
            try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                while (b.outwhile(a.inwhile())) {
                    b.send(a.<BinTree>receive());
                    a.send(b.<BinTree>receive());
                }
            }
        }

        private void forwardedBob() {
            try (SJSocket b = runtime.service(ForwardedBob.class, "localhost", forBob.port(), TCP).request()) {
                serve(b);
            }
        }

        private void delegatingCarol() {
            try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                b.send(a);
            }
        }

        private void delegatedBob() {
            try (SJSocket b = runtime.service(DelegatedBob.class, "localhost", forBob.port(), TCP).request();
                    SJSocket d = b.receive()) {
                serve(d);
            }
        }

        private static void serve(SJSocket s) {
            while (s.inwhile()) {
                s.send(s.<BinTree>receive());
            }
        }

        @TearDown(Level.Invocation)
        public void finish() throws Exception {
            carol.get(30, TimeUnit.SECONDS);
            bob.get(30, TimeUnit.SECONDS);
        }

        @TearDown(Level.Trial)
        public void close() {
            forAlice.close();
            forBob.close();
        }

        private static FutureTask<Void> start(Runnable body) {
            FutureTask<Void> task = new FutureTask<>(body, null);
            Thread.ofPlatform().daemon().start(task);
            return task;
        }
    }

    /** Alice's side of (a), unchanged in every configuration: {@code exchanges} tree exchanges, then the end. */
    @Benchmark
    public int alice(Scenario scenario) {
        int sum = 0;
        try (SJSocket s = scenario.alice) {
            for (int i = 0; i < scenario.exchanges; i++) {
                s.outwhile(true);
                s.send(scenario.tree);
                BinTree back = s.receive();
                sum += back.value;
            }
            s.outwhile(false);
        }
        return sum;
    }
}
