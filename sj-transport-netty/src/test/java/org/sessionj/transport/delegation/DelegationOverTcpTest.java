package org.sessionj.transport.delegation;

import org.sessionj.runtime.testing.delegation.StressScenario;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.AliceClient;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.CarolServesAlice;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.CarolServesAliceWithTotal;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.Increment;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.IncrementServer;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.LoopGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.LoopTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.LoopWithTotalGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.LoopWithTotalTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.ServiceGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.ServiceTaker;

/**
 * Service passing and delegation over TCP: everything on TCP (the reconnection too), and sessions
 * set up over TCP whose delegation migrates them to the in-JVM transport because the new owner
 * shares the peer's JVM; last, the peer in a second JVM.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DelegationOverTcpTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final TransportPreferences TCP = TransportPreferences.of(List.of("tcp"), List.of("tcp"));

    private static SJRuntime tcpOnly() {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").initiationTimeout(WAIT).build());
    }

    /** Default transports (in-JVM and TCP): sessions go over TCP only where the preferences say so. */
    private static SJRuntime defaults() {
        return SJRuntime.create(SJRuntimeConfig.builder().initiationTimeout(WAIT).build());
    }

    private static <T> FutureTask<T> start(Callable<T> body) {
        FutureTask<T> task = new FutureTask<>(body);
        Thread.ofVirtual().start(task);
        return task;
    }

    private static <T> T join(FutureTask<T> task) throws Exception {
        try {
            return task.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static int serveLoop(SJSocket d) {
        int served = 0;
        while (d.inwhile()) {
            d.send(10 * d.receiveInt());
            served++;
        }
        return served;
    }

    @Test
    void aServicePassedOverTcpIsRequestedOverTcp() throws Exception {
        SJRuntime rt = tcpOnly();
        try (SJServerSocket increments = rt.serverSocket(IncrementServer.class, 0);
                SJServerSocket giver = rt.serverSocket(ServiceGiver.class, 0)) {
            FutureTask<String> server = start(() -> {
                try (SJSocket s = increments.accept(WAIT)) {
                    s.send(s.receiveInt() + 1);
                    return SJRuntime.transportOf(s);
                }
            });
            FutureTask<Void> carol = start(() -> {
                try (SJSocket s = giver.accept(WAIT)) {
                    s.send(rt.service(Increment.class, "localhost", increments.port()));
                }
                return null;
            });
            try (SJSocket s = rt.service(ServiceTaker.class, "localhost", giver.port()).request()) {
                assertThat(SJRuntime.transportOf(s)).isEqualTo("tcp");
                SJService service = s.receive();
                try (SJSocket t = service.request()) {
                    t.send(1);
                    assertThat(t.receiveInt()).isEqualTo(2);
                    assertThat(SJRuntime.transportOf(t)).isEqualTo("tcp");
                }
            }
            join(carol);
            assertThat(join(server)).isEqualTo("tcp");
        }
    }

    /** Carol serves Alice two rounds herself, then delegates to Bob; Alice's replies and both ends' transports. */
    private static List<Object> delegateMidSession(SJRuntime alice, SJRuntime carol, SJRuntime bob,
            TransportPreferences initial) throws Exception {
        try (SJServerSocket forAlice = carol.serverSocket(CarolServesAlice.class, 0, initial);
                SJServerSocket forBob = carol.serverSocket(LoopGiver.class, 0, initial)) {
            FutureTask<Void> carolSide = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    for (int i = 0; i < 2; i++) {
                        assertThat(a.inwhile()).isTrue();
                        a.send(10 * a.receiveInt());
                    }
                    b.send(a);
                }
                return null;
            });
            FutureTask<String> bobSide = start(() -> {
                try (SJSocket b = bob.service(LoopTaker.class, "localhost", forBob.port(), initial).request();
                        SJSocket d = b.receive()) {
                    assertThat(serveLoop(d)).isEqualTo(4);
                    return SJRuntime.transportOf(d);
                }
            });
            List<Object> outcome = new ArrayList<>();
            try (SJSocket s = alice.service(AliceClient.class, "localhost", forAlice.port(), initial).request()) {
                outcome.add(SJRuntime.transportOf(s));
                for (int i = 1; i <= 6; i++) {
                    s.outwhile(true);
                    s.send(i);
                    outcome.add(s.receiveInt());
                }
                s.outwhile(false);
                outcome.add(SJRuntime.transportOf(s));
            }
            outcome.add(join(bobSide));
            join(carolSide);
            return outcome;
        }
    }

    @Test
    void delegationOverTcpReconnectsAliceToBobOverTcp() throws Exception {
        assertThat(delegateMidSession(tcpOnly(), tcpOnly(), tcpOnly(), TransportPreferences.unset()))
                .containsExactly("tcp", 10, 20, 30, 40, 50, 60, "tcp", "tcp");
    }

    @Test
    void delegationMigratesATcpSessionToTheInJvmTransportWhenAliceAndBobShareAJvm() throws Exception {
        // Alice-Carol and Bob-Carol are TCP sessions (their preferences say so); the reconnection is
        // negotiated with the runtimes' defaults, and Alice and Bob are in one JVM.
        assertThat(delegateMidSession(defaults(), defaults(), defaults(), TCP))
                .containsExactly("tcp", 10, 20, 30, 40, 50, 60, "shm", "shm");
    }

    @Test
    void randomizedDelegationOverTcpKeepsExactSequences() throws Exception {
        for (long seed = 1000; seed < 1040; seed++) {
            SJRuntime rt = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").initiationTimeout(WAIT)
                    .batchBytes(16 + (int) (seed * 53 % 4096)).build());
            StressScenario.Ends ends = StressScenario.run(seed, rt, rt, rt);
            assertThat(ends.alice()).isEqualTo("tcp");
            assertThat(ends.bob()).isEqualTo("tcp");
        }
    }

    @Test
    void aliceInASecondJvmOnThisHostIsReconnectedToBobOverIpc() throws Exception {
        aliceInASecondJvmIsReconnectedToBob(defaults(), "ipc");
    }

    @Test
    void aliceInASecondJvmIsReconnectedToBobOverTcpWhenThisSideDoesNotListIpc() throws Exception {
        aliceInASecondJvmIsReconnectedToBob(SJRuntime.create(SJRuntimeConfig.builder().sessionTransports("shm", "tcp")
                .initiationTimeout(WAIT).build()), "tcp");
    }

    private void aliceInASecondJvmIsReconnectedToBob(SJRuntime rt, String transport) throws Exception {
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAliceWithTotal.class, 0);
                SJServerSocket forBob = rt.serverSocket(LoopWithTotalGiver.class, 0)) {
            Process child = startAlice(forAlice.port(), 5);
            try {
                FutureTask<Void> carol = start(() -> {
                    try (SJSocket a = forAlice.accept(Duration.ofSeconds(60)); SJSocket b = forBob.accept(WAIT)) {
                        assertThat(SJRuntime.transportOf(a)).isEqualTo(transport);
                        assertThat(a.inwhile()).isTrue();
                        a.send(10 * a.receiveInt());
                        b.send(a);
                    }
                    return null;
                });
                FutureTask<String> bob = start(() -> {
                    try (SJSocket b = rt.service(LoopWithTotalTaker.class, "localhost", forBob.port()).request();
                            SJSocket d = b.receive()) {
                        assertThat(serveLoop(d)).isEqualTo(4);
                        d.send(4);
                        return SJRuntime.transportOf(d);
                    }
                });
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
                String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(child.exitValue()).as("Alice's output:\n%s", output).isZero();
                assertThat(output).contains("replies [10,20,30,40,50] total 4 " + transport + " " + transport);
                assertThat(join(bob)).isEqualTo(transport);
                join(carol);
            } finally {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static Process startAlice(int port, int rounds) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                DelegationAliceProcess.class.getName(), "localhost", Integer.toString(port), Integer.toString(rounds)));
        assertThat(Files.isExecutable(Path.of(java))).isTrue();
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
