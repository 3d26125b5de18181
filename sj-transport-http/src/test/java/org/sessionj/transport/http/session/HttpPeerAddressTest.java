package org.sessionj.transport.http.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.http.RelaySessions;
import org.sessionj.transport.http.session.HttpProtocols.BurstClient;
import org.sessionj.transport.http.session.HttpProtocols.BurstServer;

/**
 * {@code SJSocket.peerAddress()} over http (hostile18 H8: the chat server counts sessions per source address).
 * Direct, the server's end names the address the client's HTTP connection came from (a proxy's, behind
 * one); through a relay without a listen key it names nothing: every client's connection comes from the relay,
 * and counting them as one address would refuse all but a few (a keyed relay vouches for the address:
 * {@code HttpRelayListenKeyTest}). The client's end names nothing on either (its peer may be a relay).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpPeerAddressTest extends RelaySessions {
    @ParameterizedTest(name = "websocket={0}")
    @ValueSource(booleans = {true, false})
    void directTheServersEndNamesTheClientsAddressThroughTheRelayNeitherEndNamesOne(boolean websocket)
            throws Exception {
        System.setProperty("sessionj.http.websocket", String.valueOf(websocket));
        SJRuntime http = SJRuntime.create(SJRuntimeConfig.builder().transports("http")
                .initiationTimeout(Duration.ofSeconds(20)).build());
        try (SJServerSocket server = http.serverSocket(BurstServer.class, 0)) {
            try (SJSocket client = http.service(BurstClient.class, "localhost", server.port()).request();
                    SJSocket accepted = server.accept(Duration.ofSeconds(20))) {
                assertThat(SJRuntime.transportOf(accepted)).isEqualTo("http");
                assertThat(accepted.peerAddress()).isNotNull();
                assertThat(accepted.peerAddress().isLoopbackAddress()).as("%s", accepted.peerAddress()).isTrue();
                assertThat(client.peerAddress()).isNull();
                client.outwhile(false);
                assertThat(accepted.inwhile()).isFalse();
            }
        }
        useRelay();
        SJRuntime relayed = SJRuntime.create(SJRuntimeConfig.builder().transports("http")
                .initiationTimeout(Duration.ofSeconds(20)).build());
        try (SJServerSocket server = relayed.serverSocket(BurstServer.class, 0)) {
            try (SJSocket client = relayed.service(BurstClient.class, HIDDEN, server.port()).request();
                    SJSocket accepted = server.accept(Duration.ofSeconds(20))) {
                assertThat(SJRuntime.transportOf(accepted)).isEqualTo("http");
                assertThat(accepted.peerAddress()).as("through the relay").isNull();
                assertThat(client.peerAddress()).isNull();
                client.outwhile(false);
                assertThat(accepted.inwhile()).isFalse();
            }
        }
    }
}
