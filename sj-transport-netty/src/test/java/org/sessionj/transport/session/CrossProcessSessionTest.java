package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.testing.ProcessLines;
import org.sessionj.transport.tls.Certificates;

/**
 * Complete sessions between this JVM and a second one started with the same JDK and class path, in
 * both directions: every message kind, loops and a branch, and incompatible types (both sides fail).
 * Peers in different JVMs on this host end up on cross-process shared memory (ipc), and on TCP when
 * one of them does not list ipc. No fixed ports: the child prints its port, or gets ours.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrossProcessSessionTest {
    private static final long PATIENCE_SECONDS = 60;

    private final List<Child> children = new ArrayList<>();

    @AfterEach
    void stopChildren() throws InterruptedException {
        for (Child child : children) {
            child.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A child JVM whose merged stdout/stderr is collected line by line. */
    private static final class Child {
        final Process process;
        final ProcessLines output;

        Child(Process process) {
            this.process = process;
            this.output = new ProcessLines(process, "the child");
        }

        /** The next line starting with {@code prefix} (without it); fails with the child's output. */
        String next(String prefix) throws InterruptedException {
            return output.next(prefix, PATIENCE_SECONDS);
        }

        void awaitExit() throws InterruptedException {
            assertThat(process.waitFor(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("the child exits; its output:\n%s", output)
                    .isTrue();
            assertThat(process.exitValue()).as("exit code; output:\n%s", output).isZero();
        }
    }

    private Child start(String... args) throws IOException {
        return start(List.of(), args);
    }

    private Child start(List<String> jvmOptions, String... args) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SessionPeerProcess.class.getName()));
        command.addAll(List.of(args));
        Child child = new Child(new ProcessBuilder(command).redirectErrorStream(true).start());
        children.add(child);
        return child;
    }

    @Test
    void aChildServerServesEveryMessageKindLoopsAndBothBranchesOverIpc() throws Exception {
        childServerServesEverything(List.of(), "ipc");
    }

    @Test
    void aChildServerWithoutIpcServesEveryMessageKindOverTcp() throws Exception {
        childServerServesEverything(List.of("-Dsessionj.sessionTransports=shm,tcp"), "tcp");
    }

    private void childServerServesEverything(List<String> jvmOptions, String transport) throws Exception {
        Child child = start(jvmOptions, "server", "everything");
        int port = Integer.parseInt(child.next("PORT "));
        SJService service = SJService.create(Protocols.EverythingClient.class, "localhost", port);
        for (String label : List.of("SUM", "ECHO")) {
            try (SJSocket s = service.request()) {
                assertThat(SJRuntime.transportOf(s)).as("peers in two JVMs on this host").isEqualTo(transport);
                Scenarios.everythingClient(s, label);
            }
            assertThat(child.next("RESULT ")).isEqualTo("ok " + transport + " " + label);
        }
        child.awaitExit();
    }

    @Test
    void aChildRequesterGetsEveryMessageKindLoopsAndBothBranchesOverIpc() throws Exception {
        childRequesterGetsEverything(List.of(), "ipc");
    }

    @Test
    void aChildRequesterWithoutIpcGetsEveryMessageKindOverTcp() throws Exception {
        childRequesterGetsEverything(List.of("-Dsessionj.sessionTransports=tcp"), "tcp");
    }

    private void childRequesterGetsEverything(List<String> jvmOptions, String transport) throws Exception {
        try (SJServerSocket server = SJServerSocket.create(Protocols.EverythingServer.class, 0)) {
            Child child = start(jvmOptions, "client", "everything", "localhost", Integer.toString(server.port()));
            for (String label : List.of("SUM", "ECHO")) {
                try (SJSocket s = server.accept(Duration.ofSeconds(PATIENCE_SECONDS))) {
                    assertThat(SJRuntime.transportOf(s)).isEqualTo(transport);
                    assertThat(Scenarios.everythingServer(s)).isEqualTo(label);
                } catch (RuntimeException e) {
                    throw new AssertionError("the session failed here; the child's output:\n" + child.output, e);
                }
                assertThat(child.next("RESULT ")).isEqualTo("ok " + transport + " " + label);
            }
            child.awaitExit();
        }
    }

    @Test
    void anIncompatibleRequestFailsTheRequesterAndTheChildServerServesTheNextOne() throws Exception {
        Child child = start("server", "ping");
        int port = Integer.parseInt(child.next("PORT "));
        assertThatThrownBy(() -> SJService.create(Protocols.WrongClient.class, "localhost", port).request())
                .isInstanceOf(SJIncompatibleSessionException.class)
                .hasMessageContaining("incompatible session types");
        try (SJSocket s = SJService.create(Protocols.PingClient.class, "localhost", port).request()) {
            Scenarios.pingClient(s);
        }
        assertThat(child.next("RESULT ")).startsWith("ok ");
        child.awaitExit();
    }

    @Test
    void anIncompatibleChildRequesterFailsAndIsCountedWhileAcceptGoesOn() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(Protocols.PingServer.class, 0)) {
            Child child = start("client", "wrong", "localhost", Integer.toString(server.port()));
            assertThat(child.next("RESULT ")).startsWith("failed " + SJIncompatibleSessionException.class.getName());
            child.awaitExit();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (SJRuntime.failedHandshakes(server) == 0 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the count follows the reject
            }
            assertThat(SJRuntime.failedHandshakes(server)).isEqualTo(1);
            assertThatThrownBy(() -> server.accept(Duration.ofMillis(200)))
                    .as("accept() never returns nor throws for an incompatible requester")
                    .isInstanceOf(SJTimeoutException.class);
        }
    }

    @Test
    void aChildServerConfiguredForTlsOnlyGetsTlsWithoutAChangeToEitherProgram(@TempDir Path keys) throws Exception {
        List<Path> files = Certificates.write(Certificates.selfSigned("child", Certificates.localhostNames()), keys);
        Child child = start(List.of("-Dsessionj.sessionTransports=tls", "-Dsessionj.tls.cert=" + files.get(0),
                "-Dsessionj.tls.key=" + files.get(1)), "server", "ping");
        int port = Integer.parseInt(child.next("PORT "));
        System.setProperty("sessionj.tls.trust", files.get(0).toString());
        try {
            // A runtime with the default preferences, made now so that its TLS transport trusts the child.
            SJRuntime requester = SJRuntime.create(SJRuntimeConfig.defaults());
            try (SJSocket s = requester.service(Protocols.PingClient.class, "localhost", port).request()) {
                assertThat(SJRuntime.transportOf(s)).isEqualTo("tls");
                assertThat(SJRuntime.peerPrincipal(s)).hasValueSatisfying(p -> assertThat(p.getName()).contains("child"));
                Scenarios.pingClient(s);
            }
        } finally {
            System.clearProperty("sessionj.tls.trust");
        }
        assertThat(child.next("RESULT ")).isEqualTo("ok tls");
        child.awaitExit();
    }

    @Test
    void aPingBothWays() throws Exception {
        Child server = start("server", "ping");
        int port = Integer.parseInt(server.next("PORT "));
        try (SJSocket s = SJService.create(Protocols.PingClient.class, "localhost", port).request()) {
            Scenarios.pingClient(s);
        }
        assertThat(server.next("RESULT ")).isEqualTo("ok ipc");
        server.awaitExit();
        try (SJServerSocket local = SJServerSocket.create(Protocols.PingServer.class, 0)) {
            Child client = start("client", "ping", "localhost", Integer.toString(local.port()));
            try (SJSocket s = local.accept(Duration.ofSeconds(PATIENCE_SECONDS))) {
                Scenarios.pingServer(s);
            }
            assertThat(client.next("RESULT ")).isEqualTo("ok ipc");
            client.awaitExit();
        }
    }
}
