package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reading the kernel's socket tables for listening ports ({@link LocalPorts#listeners}). */
@Timeout(30)
class LocalPortsTest {
    private static final String HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid"
            + "  timeout inode\n";

    @Test
    void onlyLocalPortsInStateListenAreListeners() {
        String table = HEADER
                + "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1\n"
                // 0x9D9A only as the remote end of a connection; 0xB215 established (01), 0xC000 in TIME_WAIT (06)
                + "   1: 0100007F:B215 0100007F:9D9A 01 00000000:00000000 03:000006AE 00000000     0        0 0 3\n"
                + "   2: 0100007F:C000 0100007F:1F90 06 00000000:00000000 00:00000000 00000000     0        0 0 3\n"
                + "  13: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1\n";
        assertThat(LocalPorts.listeners(table)).containsExactlyInAnyOrder(0x1F90, 22);
    }

    @Test
    void ipv6LinesAreReadAndEmptyOrDamagedTablesListNothing() {
        String table = HEADER
                + "   0: 0000000000000000FFFF00000100007F:9705 0000000000000000FFFF00000100007F:8676 06 00000000:00000000"
                + " 03:00000313 00000000     0        0 0 3\n"
                + "  11: 00000000000000000000000000000000:898F 00000000000000000000000000000000:0000 0A 00000000:00000000"
                + " 00:00000000 00000000     0        0 8208870 1";                   // no newline at the end
        assertThat(LocalPorts.listeners(table)).containsExactly(0x898F);
        assertThat(LocalPorts.listeners("")).isEmpty();
        assertThat(LocalPorts.listeners(HEADER)).isEmpty();
        assertThat(LocalPorts.listeners(HEADER + "garbage 0A\n   1: 0100007F:XYZW 00000000:0000 0A\n   2:\n")).isEmpty();
    }

    @Test
    void aServerSocketOfThisProcessIsSeenInTheRealTablesAndOthersListedWithIt() throws IOException {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux socket tables");
        try (ServerSocket first = new ServerSocket(); ServerSocket second = new ServerSocket()) {
            first.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            second.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            assertThat(LocalPorts.isListening(first.getLocalPort())).isTrue();
            // The same read saw the second one listening: canReach answers from that, without reading again.
            assertThat(LocalPorts.canReach("127.0.0.1", second.getLocalPort())).isTrue();
        }
    }

    @Test
    void aSightingFromATableReadThatBeganBeforeAReleaseIsStale() throws IOException {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux socket tables");
        int port;
        long readStart;
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = socket.getLocalPort();
            readStart = System.nanoTime();
            assertThat(LocalPorts.isListening(port)).isTrue();
        }
        LocalPorts.released(port);
        // A read that began while the port was listed, recording it only now (another thread's canReach,
        // or a close's own wait for the kernel): the CI failure of TcpTransportTest's close-and-reach loop.
        LocalPorts.remember(port, readStart);
        assertThat(LocalPorts.canReach("127.0.0.1", port)).isFalse();
    }

    /** A loopback port nothing listens on (bound and closed again by this JVM, not through the transport). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        }
    }

    @Test
    @Timeout(120)
    void aSightingOlderThanASecondAnswersAtOnceAndABackgroundReadForgetsAPortNoLongerListening() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux socket tables");
        int port = freePort();
        long seen = System.nanoTime();
        LocalPorts.remember(port, seen);
        // Two seconds later (by the clock handed in): answered from the sighting, not by reading the
        // tables (which would say no): the requester does not wait for a read of every socket of the host.
        assertThat(LocalPorts.canReachLocal(port, seen + 2_000_000_000L)).isTrue();
        assertThat(LocalPorts.awaitRefreshes(java.time.Duration.ofSeconds(60))).isTrue();
        assertThat(LocalPorts.seenAt(port)).as("the background read found nobody listening").isNull();
        assertThat(LocalPorts.canReachLocal(port, seen + 2_000_000_000L)).isFalse();
    }

    @Test
    @Timeout(120)
    void aBackgroundReadRenewsTheSightingOfAPortStillListening() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux socket tables");
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            long seen = System.nanoTime();
            LocalPorts.remember(socket.getLocalPort(), seen);
            assertThat(LocalPorts.canReachLocal(socket.getLocalPort(), seen + 2_000_000_000L)).isTrue();
            assertThat(LocalPorts.awaitRefreshes(java.time.Duration.ofSeconds(60))).isTrue();
            assertThat(LocalPorts.seenAt(socket.getLocalPort()) - seen).as("renewed by a later read").isPositive();
        }
    }

    @Test
    void aSightingOlderThanTenSecondsIsReadAgainBeforeTheAnswer() throws IOException {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux socket tables");
        int port = freePort();
        long seen = System.nanoTime();
        LocalPorts.remember(port, seen);
        assertThat(LocalPorts.canReachLocal(port, seen + 11_000_000_000L)).isFalse();
        assertThat(LocalPorts.seenAt(port)).isNull();
    }

    /** hostile17 H3: Netty's "Unable to create Channel from class …" hid the kernel's reason. */
    @Test
    void aListenFailureKeepsItsRootCause() {
        IOException emfile = new IOException("accept(..) failed: Too many open files");
        IOException failure = LocalPorts.listenFailure("cannot listen on TCP port 0 of 127.0.0.1 (tcp): Unable to create"
                + " Channel from class EpollServerSocketChannel", new RuntimeException("Unable to create Channel", emfile));
        assertThat(failure).isNotInstanceOf(java.net.BindException.class)
                .hasMessageEndingWith("EpollServerSocketChannel (accept(..) failed: Too many open files)");
        IOException taken = LocalPorts.listenFailure("cannot listen on TCP port 80 (tcp): Address already in use",
                new java.net.BindException("Address already in use"));
        assertThat(taken).isInstanceOf(java.net.BindException.class)
                .hasMessage("cannot listen on TCP port 80 (tcp): Address already in use");
    }
}
