package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.session.Protocols.PingClient;
import org.sessionj.transport.session.Protocols.PingServer;
import org.sessionj.transport.tls.Certificates;

/**
 * A thread that ends with a session open, its type incomplete (an unchecked exception left it, or it simply
 * returned: adv18 A13), over tcp (event loops and blocking sockets), tls and ipc: the peer, blocked in a
 * receive, fails with a message that says so within a bound, instead of waiting for as long as this process
 * lives (heartbeats kept such a connection alive). The transport's heartbeat timer looks at the session's
 * thread; two looks in a row see it ended. Heartbeats every 100 ms here on tcp and tls (the ipc doorbell has
 * this JVM's settings, 5 s by default), bound 5 s (20 s on ipc). The ended thread's runtime keeps sending
 * heartbeats, so the silence rule (10 s here) cannot be what ends the wait: only the thread rule can.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ThreadEndedSessionTest {
    private static Path tlsFiles;

    @AfterAll
    static void deleteTlsFiles() throws Exception {
        if (tlsFiles != null) {
            try (var files = Files.list(tlsFiles)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(tlsFiles);
        }
    }

    /**
     * The system properties the transports read when the runtime creates them (heartbeats, blocking tcp) or when
     * they listen (tls); set for the whole test, cleared after it.
     */
    private static Map<String, String> properties(String transport) throws Exception {
        Map<String, String> properties = new java.util.HashMap<>(Map.of("sessionj.heartbeat.interval", "100ms",
                "sessionj.heartbeat.timeout", "10s"));
        if (transport.equals("tcp-blocking")) {
            properties.put("sessionj.tcp.io", "blocking");
        } else if (transport.equals("tls")) {
            properties.putAll(tls());
        }
        return properties;
    }

    private static SJRuntime runtime(String transport) {
        SJRuntimeConfig.Builder config = switch (transport) {
            case "tcp", "tcp-blocking" -> SJRuntimeConfig.builder().transports("tcp");
            case "tls" -> SJRuntimeConfig.builder().transports("tls");
            case "ipc" -> SJRuntimeConfig.builder().transports("ipc", "tcp").sessionTransports("ipc");
            default -> throw new IllegalArgumentException(transport);
        };
        // Before the rule, a receive waited for as long as the process lived: this ends it.
        return SJRuntime.create(config.defaultTimeout(Duration.ofSeconds(30)).build());
    }

    /** Runs {@code test} over {@code transport} with its system properties set. */
    private static void over(String transport, Body test) throws Exception {
        Map<String, String> properties = properties(transport);
        properties.forEach(System::setProperty);
        try {
            test.run(runtime(transport));
        } finally {
            properties.keySet().forEach(System::clearProperty);
        }
    }

    /** A test's body. */
    private interface Body {
        void run(SJRuntime runtime) throws Exception;
    }

    private static synchronized Map<String, String> tls() throws Exception {
        if (tlsFiles == null) {
            tlsFiles = Files.createTempDirectory("sj-orphan-tls");
        }
        List<Path> files = Certificates.write(Certificates.selfSigned("localhost", Certificates.localhostNames()),
                tlsFiles);
        return Map.of("sessionj.tls.cert", files.get(0).toString(), "sessionj.tls.key", files.get(1).toString(),
                "sessionj.tls.trust", files.get(0).toString());
    }

    private static long boundMillis(String transport) {
        return transport.equals("ipc") ? 20_000 : 5_000;
    }

    private static String transportName(String transport) {
        return transport.equals("tcp-blocking") ? "tcp" : transport;
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "tcp-blocking", "tls", "ipc"})
    void aClientThreadThatEndsWithItsSessionOpenFailsTheSessionAndTheServerIsTold(String transport) throws Exception {
        over(transport, runtime -> clientThreadEnds(transport, runtime));
    }

    private static void clientThreadEnds(String transport, SJRuntime runtime) throws Exception {
        try (SJServerSocket server = runtime.serverSocket(PingServer.class, 0)) {
            // The client's thread makes the session and ends without an action (the getting-started pattern on
            // the client side, an exception thrown before the first send): the session's next action is !<int>.
            CompletableFuture<String> clientTransport = new CompletableFuture<>();
            Thread client = Thread.ofVirtual().name("orphaning-client").start(() -> {
                SJSocket s = runtime.service(PingClient.class, "localhost", server.port()).request();
                clientTransport.complete(SJRuntime.transportOf(s));
            });
            SJSocket accepted = server.accept(Duration.ofSeconds(30));
            client.join();
            assertThat(clientTransport.get(30, TimeUnit.SECONDS)).isEqualTo(transportName(transport));
            long started = System.nanoTime();
            assertThatThrownBy(accepted::receiveInt).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("the peer's thread that owned the session ended without completing or"
                            + " closing it")
                    .hasMessageContaining("!<int>");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            System.out.printf("ORPHAN %s: the server's receive failed %d ms after the client's thread ended%n",
                    transport, millis);
            assertThat(millis).as("told within %d ms", boundMillis(transport)).isLessThan(boundMillis(transport));
            accepted.close();
        }
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "tcp-blocking", "tls", "ipc"})
    void aServerThreadPerClientThatReturnsWithTheSessionOpenFailsItAndTheClientIsTold(String transport)
            throws Exception {
        over(transport, runtime -> serverThreadEnds(transport, runtime));
    }

    private static void serverThreadEnds(String transport, SJRuntime runtime) throws Exception {
        try (SJServerSocket server = runtime.serverSocket(PingServer.class, 0);
                SJSocket client = runtime.service(PingClient.class, "localhost", server.port()).request()) {
            SJSocket accepted = server.accept(Duration.ofSeconds(30));
            // getting-started §4's thread per client, holding its session in a plain local: it receives, then
            // returns before it answers (its next action is !<int>); the accepting thread lives on.
            CompletableFuture<Integer> received = new CompletableFuture<>();
            Thread serving = Thread.ofVirtual().name("serving-one").start(() -> received.complete(accepted.receiveInt()));
            client.send(41);
            assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo(41);
            serving.join();
            long started = System.nanoTime();
            assertThatThrownBy(client::receiveInt).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("the peer's thread that owned the session ended without completing or"
                            + " closing it")
                    .hasMessageContaining("!<int>");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            System.out.printf("ORPHAN %s: the client's receive failed %d ms after the server's thread ended%n",
                    transport, millis);
            assertThat(millis).as("told within %d ms", boundMillis(transport)).isLessThan(boundMillis(transport));
            assertThatThrownBy(() -> accepted.send(42)).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("serving-one").hasMessageContaining("ended with the session open");
        }
    }

    /**
     * The hand-overs the runtime knows are not orphans (the rule's other half): a session given to {@code SJ.spawn}
     * by a thread that then ends, and one that waits in {@code accept()}'s queue (made by a handshake thread that
     * ended) for a program that takes it late, each first acted on by its new thread ten heartbeat intervals (five
     * looks' grace twice over) after the old one ended: both complete.
     */
    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "tcp-blocking", "tls", "ipc"})
    void sessionsHandedOverBySpawnOrWaitingInTheAcceptQueueAreNotFailed(String transport) throws Exception {
        over(transport, runtime -> handedOver(runtime));
    }

    private static void handedOver(SJRuntime runtime) throws Exception {
        try (SJServerSocket server = runtime.serverSocket(PingServer.class, 0)) {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            CompletableFuture<org.sessionj.api.SJThread> spawned = new CompletableFuture<>();
            CompletableFuture<Integer> answer = new CompletableFuture<>();
            Thread maker = Thread.ofVirtual().name("spawning-client").start(() -> {
                SJSocket s = runtime.service(PingClient.class, "localhost", server.port()).request();
                spawned.complete(org.sessionj.api.SJ.spawn(s, c -> {
                    go.await(); // acts only long after its maker ended
                    try (c) {
                        c.send(7);
                        answer.complete(c.receiveInt());
                    }
                }));
            });
            maker.join();
            // The request was answered: the server's session waits in accept()'s queue, made by a handshake thread.
            org.sessionj.api.SJThread body = spawned.get(30, TimeUnit.SECONDS);
            assertThat(maker.isAlive()).isFalse();
            // Ten heartbeat intervals with both old threads ended and nobody acting: the rule looks five times
            // over at each end. (A wait for time to pass, not for an event: the test is that nothing happens.)
            Thread.sleep(1_000);
            SJSocket accepted = server.accept(Duration.ofSeconds(30));
            go.countDown();
            try (accepted) {
                assertThat(accepted.receiveInt()).isEqualTo(7);
                accepted.send(8);
            }
            assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(8);
            assertThat(body.join(Duration.ofSeconds(30))).isTrue();
        }
    }
}
