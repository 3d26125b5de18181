package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJServerSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.transport.tcp.PingRounds;
import org.sessionj.transport.tcp.SessionProtocols;

/**
 * One address cannot fill a TLS server's handshakes (the hostile-peer pass replayed one captured
 * ClientHello on 1,000 connections and held a real client 7-12 s): past
 * {@code sessionj.tls.maxHandshakesPerAddress} connections of its own in their TLS handshake, the
 * next connection from that address is closed at once, while a client from another address is served.
 * The flooder connects from 127.0.0.2 (Linux routes all of 127/8 to lo), the real client from 127.0.0.1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsPerAddressLimitTest {
    private static final int CAP = 2;
    private SilentTlsPeers peers;

    @BeforeEach
    void configureTls(@TempDir Path dir) throws IOException {
        peers = new SilentTlsPeers(dir, "sessionj.tls.maxHandshakesPerAddress", String.valueOf(CAP));
    }

    @AfterEach
    void clear() throws IOException {
        peers.close();
    }

    /** A connection from {@code local} that never sends a ClientHello. */
    private Socket silentFrom(String local, int port) throws IOException {
        return peers.silent(local, port);
    }

    @Test
    void oneAddressPastItsCapIsClosedAtOnceAndAnotherAddressIsServed() throws Exception {
        SJRuntime server = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
        SJRuntime client = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
        try (SJServerSocket socket = server.serverSocket(SessionProtocols.PingServer.class, 0)) {
            SessionServerSocket counted = (SessionServerSocket) socket;
            silentFrom("127.0.0.2", socket.port());
            silentFrom("127.0.0.2", socket.port());
            SilentTlsPeers.await(() -> counted.pendingHandshakes() == CAP, CAP + " TLS handshakes from 127.0.0.2");
            Socket third = silentFrom("127.0.0.2", socket.port());
            long start = System.nanoTime();
            assertThat(SilentTlsPeers.closedByServer(third)).as("the third connection from 127.0.0.2 is closed").isTrue();
            assertThat(System.nanoTime() - start).as("at once, not after a handshake timeout")
                    .isLessThan(TimeUnit.SECONDS.toNanos(5));
            assertThat(counted.pendingHandshakes()).as("the refused one held no slot").isEqualTo(CAP);

            PingRounds.run(client, socket, 3); // from 127.0.0.1: served, the flooder's two still held

            assertThat(peers.raw.get(0).isClosed()).isFalse();
            peers.raw.get(0).close();
            peers.raw.get(1).close();
            SilentTlsPeers.await(() -> counted.pendingHandshakes() == 0, "the flooder's slots back once it closed");
            Socket again = silentFrom("127.0.0.2", socket.port());
            SilentTlsPeers.await(() -> counted.pendingHandshakes() == 1, "127.0.0.2 may start a handshake again");
            again.close();
        }
    }
}
