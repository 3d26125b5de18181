package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.transport.tcp.PingRounds;
import org.sessionj.transport.tcp.SessionProtocols;

/**
 * TLS connections count toward a server socket's pending-handshake limit while their TLS handshake
 * runs (before, they reached the runtime only once it had succeeded, so any number of silent TLS
 * connections held the server's memory and descriptors, bounded only by Netty's 10 s TLS timeout):
 * past the limit a new connection is not read until a slot is free, the oldest stalled one is dropped
 * for it, and a real client is served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsPendingLimitTest {
    private static final int LIMIT = 3;
    private SilentTlsPeers peers;

    @BeforeEach
    void configureTls(@TempDir Path dir) throws IOException {
        peers = new SilentTlsPeers(dir);
    }

    @AfterEach
    void clear() throws IOException {
        peers.close();
    }

    /**
     * A server runtime over tls with the limit; a handshake stalls after 5 s (min of 5 s and the initiation
     * timeout). The initiation timeout (6 s) closes a TLS handshake on its own, later: the drop for the real
     * client comes first. Not shorter: the real client's cold TLS handshake must also finish within it on a
     * loaded machine.
     */
    private static SJRuntime server() {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("tls").maxPendingHandshakes(LIMIT)
                .initiationTimeout(Duration.ofSeconds(6)).build());
    }

    /** A connection that never sends a ClientHello. */
    private Socket silent(int port) throws IOException {
        return peers.silent(null, port);
    }

    @Test
    void silentTlsConnectionsPastTheLimitHoldNoMoreSlotsAndARealClientIsServed() throws Exception {
        SJRuntime server = server();
        SJRuntime client = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
        try (SJServerSocket socket = server.serverSocket(SessionProtocols.PingServer.class, 0)) {
            Queue<SJException> told = new ConcurrentLinkedQueue<>();
            SJRuntime.onFailedHandshake(socket, told::add);
            for (int i = 0; i < 2 * LIMIT; i++) {
                silent(socket.port()); // connects, never sends a ClientHello
            }
            SessionServerSocket counted = (SessionServerSocket) socket;
            SilentTlsPeers.await(() -> counted.pendingHandshakes() == LIMIT, LIMIT + " TLS handshakes holding the slots");

            // A real client: its connection waits for a slot; once the oldest silent one has stalled for the
            // stall time (no handshake succeeds meanwhile), it is dropped for it.
            PingRounds.run(client, socket, 3);

            assertThat(SilentTlsPeers.closedByServer(peers.raw.get(0))).as("the oldest silent connection was dropped").isTrue();
            assertThat(SJRuntime.failedHandshakes(socket)).isPositive();
            assertThat(told).first().isInstanceOf(SJTimeoutException.class).extracting(Throwable::getMessage).asString()
                    .contains("dropped: the requester did not finish its tls handshake within PT5S")
                    .contains("limit of 3 pending handshakes (sessionj.maxPendingHandshakes)");
            assertThat(counted.pendingHandshakes()).as("never more than the limit").isLessThanOrEqualTo(LIMIT);
        }
    }

    @Test
    void closingTheServerSocketClosesConnectionsStillInTheirTlsHandshake() throws Exception {
        SJRuntime server = server();
        SJServerSocket socket = server.serverSocket(SessionProtocols.PingServer.class, 0);
        Socket first = silent(socket.port());
        Socket second = silent(socket.port());
        SessionServerSocket counted = (SessionServerSocket) socket;
        SilentTlsPeers.await(() -> counted.pendingHandshakes() == 2, "two TLS handshakes");
        socket.close();
        assertThat(SilentTlsPeers.closedByServer(first)).isTrue();
        assertThat(SilentTlsPeers.closedByServer(second)).isTrue();
        SilentTlsPeers.await(() -> counted.pendingHandshakes() == 0, "their slots back");
    }
}
