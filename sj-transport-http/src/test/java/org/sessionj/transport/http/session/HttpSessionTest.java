package org.sessionj.transport.http.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.transport.http.RelaySessions;
import org.sessionj.transport.http.session.HttpProtocols.LoopClient;
import org.sessionj.transport.http.session.HttpProtocols.LoopServer;
import org.sessionj.transport.http.session.LoopSession.Ends;

/**
 * Whole sessions over http, direct and through an in-process relay, and the negotiation around it:
 * the default lists, and a requester that cannot reach the server's TCP port falling back to the relay.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpSessionTest extends RelaySessions {
    private static SJRuntime runtime(String... transports) {
        return SJRuntime.create(SJRuntimeConfig.builder().transports(transports)
                .initiationTimeout(Duration.ofSeconds(20)).build());
    }

    @Test
    void loopsAndBranchesOverHttpDirectWithWebSocketAndWithLongPolling() throws Exception {
        SJRuntime http = runtime("http");
        try (SJServerSocket server = http.serverSocket(LoopServer.class, 0)) {
            assertThat(LoopSession.run(server, http.service(LoopClient.class, "localhost", server.port()), 50, true))
                    .isEqualTo(new Ends("http", "http"));
            System.setProperty("sessionj.http.websocket", "false");
            assertThat(LoopSession.run(server, http.service(LoopClient.class, "localhost", server.port()), 50, false))
                    .isEqualTo(new Ends("http", "http"));
        }
    }

    @Test
    void loopsAndBranchesThroughTheRelay() throws Exception {
        useRelay();
        SJRuntime http = runtime("http");
        try (SJServerSocket server = http.serverSocket(LoopServer.class, 0)) {
            assertThat(LoopSession.run(server, http.service(LoopClient.class, HIDDEN, server.port()), 50, true))
                    .isEqualTo(new Ends("http", "http"));
            System.setProperty("sessionj.http.websocket", "false");
            assertThat(LoopSession.run(server, http.service(LoopClient.class, HIDDEN, server.port()), 50, false))
                    .isEqualTo(new Ends("http", "http"));
        }
    }

    @Test
    void theDefaultListsTryHttpLastAndOnlyWithARelay() {
        var withoutRelay = TransportManager.create(TransportPreferences.unset()).defaults();
        assertThat(withoutRelay.setupNames()).containsExactly("shm", "tcp");
        assertThat(withoutRelay.sessionNames()).containsExactly("shm", "ipc", "tcp", "tls");
        useRelay();
        var withRelay = TransportManager.create(TransportPreferences.unset()).defaults();
        assertThat(withRelay.setupNames()).containsExactly("shm", "tcp", "http");
        assertThat(withRelay.sessionNames()).containsExactly("shm", "ipc", "tcp", "tls", "http");
    }

    @Test
    void aRequesterThatCannotReachTheTcpPortFallsBackToTheRelayAndOneThatCanStaysOnTcp() throws Exception {
        useRelay();
        SJRuntime both = runtime("tcp", "http");
        try (SJServerSocket server = both.serverSocket(LoopServer.class, 0)) {
            long start = System.nanoTime();
            assertThat(LoopSession.run(server, both.service(LoopClient.class, HIDDEN, server.port()), 20, true))
                    .isEqualTo(new Ends("http", "http"));
            assertThat(System.nanoTime() - start).as("fell back within the initiation bound")
                    .isLessThan(TimeUnit.SECONDS.toNanos(20));
            assertThat(LoopSession.run(server, both.service(LoopClient.class, "localhost", server.port()), 20, false))
                    .isEqualTo(new Ends("tcp", "tcp"));
        }
    }

    @Test
    void inOneJvmTheSessionStillMovesToTheInJvmTransportAfterASetupThroughTheRelay() throws Exception {
        useRelay();
        SJRuntime defaults = SJRuntime.create(SJRuntimeConfig.builder().initiationTimeout(Duration.ofSeconds(20)).build());
        try (SJServerSocket server = defaults.serverSocket(LoopServer.class, 0)) {
            assertThat(LoopSession.run(server, defaults.service(LoopClient.class, HIDDEN, server.port(),
                    TransportPreferences.of(List.of("http"), List.of())), 5, true)).isEqualTo(new Ends("shm", "shm"));
        }
    }
}
