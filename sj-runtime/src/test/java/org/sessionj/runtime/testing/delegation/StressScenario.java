package org.sessionj.runtime.testing.delegation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.testing.delegation.StressProtocols.StressAlice;
import org.sessionj.runtime.testing.delegation.StressProtocols.StressBob;
import org.sessionj.runtime.testing.delegation.StressProtocols.StressCarol;
import org.sessionj.runtime.testing.delegation.StressProtocols.StressCarolToBob;

/**
 * One seeded run of the delegation stress scenario: Carol streams {@code m} ints to Alice, Alice
 * streams {@code n} ints back and receives their sum. Carol delegates her end to Bob at a random
 * point: during her own stream (after {@code j} items, Alice's reads in flight) or during Alice's
 * (after consuming {@code k} items, the rest in flight or buffered at Carol). Asserts the exact
 * sequences on every side.
 */
public final class StressScenario {
    private StressScenario() {
    }

    /** What a run found, for the caller's transport assertions. */
    public record Ends(String alice, String bob) {
    }

    public static Ends run(long seed, SJRuntime aliceRuntime, SJRuntime carolRuntime, SJRuntime bobRuntime) throws Exception {
        Random random = new Random(seed);
        int m = random.nextInt(40);
        int n = random.nextInt(150);
        boolean duringOwnStream = random.nextBoolean();
        int j = duringOwnStream ? random.nextInt(m + 1) : m;
        int k = duringOwnStream ? 0 : random.nextInt(n + 1);
        AtomicReference<String> aliceTransport = new AtomicReference<>();
        AtomicReference<String> bobTransport = new AtomicReference<>();
        String what = "seed " + seed + " (m=" + m + ", n=" + n + ", " + (duringOwnStream ? "OUT j=" + j : "IN k=" + k) + ")";
        try (SJServerSocket forAlice = carolRuntime.serverSocket(StressCarol.class, 0);
                SJServerSocket forBob = carolRuntime.serverSocket(StressCarolToBob.class, 0)) {
            FutureTask<List<Integer>> carol = start(() -> {
                try (SJSocket a = forAlice.accept(Duration.ofSeconds(10));
                        SJSocket b = forBob.accept(Duration.ofSeconds(10))) {
                    List<Integer> got = new ArrayList<>();
                    int sent = 0;
                    for (; sent < j; sent++) {
                        a.outwhile(true);
                        a.send(1000 + sent);
                    }
                    if (duringOwnStream) {
                        b.send(sent);
                        b.send(m - sent);
                        b.outbranch("OUT");
                    } else {
                        a.outwhile(false);
                        int sum = 0;
                        for (int i = 0; i < k; i++) {
                            assertThat(a.inwhile()).as(what).isTrue();
                            int v = a.receiveInt();
                            got.add(v);
                            sum += v;
                        }
                        b.send(k);
                        b.send(sum);
                        b.outbranch("IN");
                    }
                    b.send(a);
                    return got;
                }
            });
            FutureTask<List<Integer>> bob = start(() -> {
                try (SJSocket b = bobRuntime.service(StressBob.class, "localhost", forBob.port()).request()) {
                    int p = b.receiveInt();
                    int q = b.receiveInt();
                    String label = b.inbranch();
                    List<Integer> got = new ArrayList<>();
                    try (SJSocket d = b.receive()) {
                        int sum = 0;
                        if (label.equals("OUT")) {
                            for (int i = 0; i < q; i++) {
                                d.outwhile(true);
                                d.send(1000 + p + i);
                            }
                            d.outwhile(false);
                        } else {
                            sum = q;
                        }
                        while (d.inwhile()) {
                            int v = d.receiveInt();
                            got.add(v);
                            sum += v;
                        }
                        d.send(sum);
                        bobTransport.set(SJRuntime.transportOf(d));
                    }
                    return got;
                }
            });
            FutureTask<List<Integer>> alice = start(() -> {
                try (SJSocket s = aliceRuntime.service(StressAlice.class, "localhost", forAlice.port()).request()) {
                    List<Integer> got = new ArrayList<>();
                    while (s.inwhile()) {
                        got.add(s.receiveInt());
                    }
                    for (int i = 0; i < n; i++) {
                        s.outwhile(true);
                        s.send(i);
                    }
                    s.outwhile(false);
                    got.add(s.receiveInt());
                    aliceTransport.set(SJRuntime.transportOf(s));
                    return got;
                }
            });
            List<Integer> aliceGot = join(alice, what);
            List<Integer> carolGot = join(carol, what);
            List<Integer> bobGot = join(bob, what);
            List<Integer> expectedAlice = new ArrayList<>(IntStream.range(1000, 1000 + m).boxed().toList());
            expectedAlice.add(n * (n - 1) / 2);
            assertThat(aliceGot).as("Alice, " + what).isEqualTo(expectedAlice);
            List<Integer> received = new ArrayList<>(carolGot);
            received.addAll(bobGot);
            assertThat(received).as("Carol then Bob, " + what).isEqualTo(IntStream.range(0, n).boxed().toList());
            return new Ends(aliceTransport.get(), bobTransport.get());
        }
    }

    private static <T> FutureTask<T> start(Callable<T> body) {
        FutureTask<T> task = new FutureTask<>(body);
        Thread.ofVirtual().start(task);
        return task;
    }

    private static <T> T join(FutureTask<T> task, String what) throws Exception {
        try {
            return task.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(what + ": " + e.getCause(), e.getCause());
        }
    }
}
