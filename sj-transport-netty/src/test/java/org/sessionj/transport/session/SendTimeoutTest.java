package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SendTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.session.Protocols.ChunkClient;
import org.sessionj.transport.session.Protocols.ChunkServer;
import org.sessionj.transport.tls.Certificates;

/**
 * A session whose peer stops reading: the writer's blocked send ends with a
 * {@link SendTimeoutException} naming the session and the pending action within the send timeout
 * and a small bound, on every transport. The program's send includes what the runtime does once the
 * write timed out (fail the session, close the connection): before, that close waited for the unsent
 * bytes for the transports' 10 s linger (tcp, tls) or close bound (ipc), so a send with a 2 s timeout
 * failed after 12 s. The bound asserted (5 s over a 300 ms timeout) is generous for a loaded machine
 * and still far below those 10 s.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SendTimeoutTest {
    private static final Duration SEND_TIMEOUT = Duration.ofMillis(300);
    private static final long BOUND_MILLIS = SEND_TIMEOUT.toMillis() + 5_000;
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

    /** The runtime's transports for {@code name} and the system properties its transports read at creation. */
    private static SJRuntimeConfig.Builder config(String name) {
        return switch (name) {
            case "tcp", "tcp-blocking" -> SJRuntimeConfig.builder().transports("tcp");
            case "tls" -> SJRuntimeConfig.builder().transports("tls");
            case "ipc" -> SJRuntimeConfig.builder().transports("ipc", "tcp").sessionTransports("ipc");
            case "in-JVM" -> SJRuntimeConfig.builder();
            default -> throw new IllegalArgumentException(name);
        };
    }

    private static Map<String, String> properties(String name) throws Exception {
        return switch (name) {
            case "tcp-blocking" -> Map.of("sessionj.tcp.io", "blocking");
            case "tls" -> {
                synchronized (SendTimeoutTest.class) {
                    if (tlsFiles == null) {
                        tlsFiles = Files.createTempDirectory("sj-send-timeout-tls");
                    }
                }
                List<Path> files = Certificates.write(Certificates.selfSigned("localhost", Certificates.localhostNames()),
                        tlsFiles);
                yield Map.of("sessionj.tls.cert", files.get(0).toString(), "sessionj.tls.key", files.get(1).toString(),
                        "sessionj.tls.trust", files.get(0).toString());
            }
            default -> Map.of();
        };
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "tcp-blocking", "tls", "ipc", "in-JVM"})
    void aSendThePeerDoesNotTakeFailsWithinTheSendTimeoutNamingTheSessionAndItsPendingAction(String transport)
            throws Exception {
        // The transports read these when the runtime creates them (blocking tcp) or when they listen (tls).
        Map<String, String> properties = properties(transport);
        properties.forEach(System::setProperty);
        try {
            SJRuntime server = SJRuntime.create(config(transport).build());
            SJRuntime client = SJRuntime.create(config(transport).sendTimeout(SEND_TIMEOUT).build());
            sendUntilTheTimeout(transport, server, client);
        } finally {
            properties.keySet().forEach(System::clearProperty);
        }
    }

    private static void sendUntilTheTimeout(String transport, SJRuntime servers, SJRuntime clients) {
        try (SJServerSocket server = servers.serverSocket(ChunkServer.class, 0);
                SJSocket writer = clients.service(ChunkClient.class, "localhost", server.port()).request()) {
            SJSocket reader = server.accept(Duration.ofSeconds(30)); // and never reads
            String expected = transport.equals("in-JVM") ? "shm" : transport.equals("tcp-blocking") ? "tcp" : transport;
            assertThat(SJRuntime.transportOf(writer)).isEqualTo(expected);
            byte[] chunk = new byte[64 * 1024];
            long sent = 0;
            long sendStarted = System.nanoTime();
            SendTimeoutException failure = null;
            while (failure == null && sent < 1L << 30) { // far past every transport's bound
                try {
                    sendStarted = System.nanoTime();
                    writer.outwhile(true);
                    writer.send(chunk);
                    sent += chunk.length;
                } catch (SendTimeoutException e) {
                    failure = e;
                }
            }
            long blocked = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sendStarted);
            assertThat(failure).as("after %d bytes", sent).isNotNull();
            assertThat(failure.getMessage()).as("names the session and the pending action")
                    .contains("send timeout", "PT0.3S", "cbegin.![!<byte[]>]*", "before");
            assertThat(blocked).as("the blocked send (%s) ended within the send timeout and %d ms", failure.getMessage(),
                    BOUND_MILLIS - SEND_TIMEOUT.toMillis()).isLessThan(BOUND_MILLIS);
            assertThat(SJRuntime.transportOf(reader)).isEqualTo(expected);
            reader.close(); // the reader's type is not complete: abandoned, its peer is told
        }
    }
}
