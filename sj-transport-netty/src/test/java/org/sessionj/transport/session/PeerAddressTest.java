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
import org.junit.jupiter.params.provider.CsvSource;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.session.Protocols.PingClient;
import org.sessionj.transport.session.Protocols.PingServer;
import org.sessionj.transport.tls.Certificates;

/**
 * {@code SJSocket.peerAddress()} on each transport of this module (hostile18 H8: the chat server counts
 * sessions per source address): over tcp (both io modes) and tls each end names the other's IP address (here
 * loopback); in-JVM and ipc name nothing (the peer is this host's, and counting every local peer as one address
 * would cap them together). http: {@code HttpPeerAddressTest} in sj-transport-http.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeerAddressTest {
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

    /** The system properties the transports read when the runtime creates them (blocking tcp) or when they listen (tls). */
    private static synchronized Map<String, String> properties(String transport) throws Exception {
        if (transport.equals("tcp-blocking")) {
            return Map.of("sessionj.tcp.io", "blocking");
        }
        if (!transport.equals("tls")) {
            return Map.of();
        }
        if (tlsFiles == null) {
            tlsFiles = Files.createTempDirectory("sj-peer-address-tls");
        }
        List<Path> files = Certificates.write(Certificates.selfSigned("localhost", Certificates.localhostNames()),
                tlsFiles);
        return Map.of("sessionj.tls.cert", files.get(0).toString(), "sessionj.tls.key", files.get(1).toString(),
                "sessionj.tls.trust", files.get(0).toString());
    }

    private static SJRuntime runtime(String transport) {
        return SJRuntime.create(switch (transport) {
            case "tcp", "tcp-blocking" -> SJRuntimeConfig.builder().transports("tcp").build();
            case "tls" -> SJRuntimeConfig.builder().transports("tls").build();
            case "ipc" -> SJRuntimeConfig.builder().transports("ipc", "tcp").sessionTransports("ipc").build();
            case "shm" -> SJRuntimeConfig.builder().build();
            default -> throw new IllegalArgumentException(transport);
        });
    }

    @ParameterizedTest(name = "over {0}")
    @CsvSource({"tcp, true", "tcp-blocking, true", "tls, true", "ipc, false", "shm, false"})
    void eachEndNamesItsPeersAddressWhereTheTransportHasOne(String transport, boolean named) throws Exception {
        Map<String, String> properties = properties(transport);
        properties.forEach(System::setProperty);
        try {
            check(transport, named, runtime(transport));
        } finally {
            properties.keySet().forEach(System::clearProperty);
        }
    }

    private static void check(String transport, boolean named, SJRuntime runtime) throws Exception {
        try (SJServerSocket server = runtime.serverSocket(PingServer.class, 0);
                SJSocket client = runtime.service(PingClient.class, "localhost", server.port()).request();
                SJSocket accepted = server.accept(Duration.ofSeconds(30))) {
            assertThat(SJRuntime.transportOf(accepted)).isEqualTo(transport.equals("tcp-blocking") ? "tcp" : transport);
            if (named) {
                assertThat(accepted.peerAddress()).isNotNull();
                assertThat(accepted.peerAddress().isLoopbackAddress()).as("%s", accepted.peerAddress()).isTrue();
                assertThat(client.peerAddress()).isNotNull();
                assertThat(client.peerAddress().isLoopbackAddress()).as("%s", client.peerAddress()).isTrue();
            } else {
                assertThat(accepted.peerAddress()).isNull();
                assertThat(client.peerAddress()).isNull();
            }
            client.send(41);
            assertThat(accepted.receiveInt()).isEqualTo(41);
            accepted.send(42);
            assertThat(client.receiveInt()).isEqualTo(42);
        }
    }
}
