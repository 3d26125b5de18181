package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.runtime.internal.transport.Negotiation;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.transport.session.Protocols.PingClient;
import org.sessionj.transport.session.Protocols.PingServer;
import org.sessionj.transport.tcp.TcpTransport;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.KeyMaterial;

/**
 * The transport negotiation of paper 000 §5.3 between runtimes in one JVM, with the in-JVM, TCP and
 * TLS transports installed: the same program ends up on the transport the preferences call for.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NegotiationTest {
    private static final List<String> TLS_PROPERTIES = List.of("sessionj.tls.cert", "sessionj.tls.key", "sessionj.tls.trust");

    @BeforeAll
    static void tlsKeyMaterial(@TempDir Path directory) throws Exception {
        KeyMaterial key = Certificates.selfSigned("negotiation-test", Certificates.localhostNames());
        List<Path> files = Certificates.write(key, directory);
        System.setProperty("sessionj.tls.cert", files.get(0).toString());
        System.setProperty("sessionj.tls.key", files.get(1).toString());
        System.setProperty("sessionj.tls.trust", files.get(0).toString());
    }

    @AfterAll
    static void forgetKeyMaterial() {
        TLS_PROPERTIES.forEach(System::clearProperty);
    }

    private static SJRuntime runtime(SJRuntimeConfig.Builder config) {
        return SJRuntime.create(config.build());
    }

    private static SJRuntime defaults() {
        return runtime(SJRuntimeConfig.builder());
    }

    /** The outcome of one ping session: the transport each side ended on. */
    private record Ends(String requester, String accepter) {
    }

    /** The program: unchanged whatever the transports. */
    private static Ends ping(SJServerSocket server, SJRuntime requester, TransportPreferences preferences)
            throws Exception {
        CompletableFuture<String> accepted = CompletableFuture.supplyAsync(() -> {
            try (SJSocket s = server.accept(java.time.Duration.ofSeconds(20))) {
                int n = s.receiveInt();
                s.send(n + 1);
                return SJRuntime.transportOf(s);
            }
        });
        String requesterEnd;
        try (SJSocket s = requester.service(PingClient.class, "localhost", server.port(), preferences).request()) {
            s.send(41);
            assertThat(s.receiveInt()).isEqualTo(42);
            requesterEnd = SJRuntime.transportOf(s);
        }
        return new Ends(requesterEnd, accepted.get(20, TimeUnit.SECONDS));
    }

    private static Throwable acceptFailure(CompletableFuture<?> accept) throws Exception {
        try {
            accept.get(20, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    @Test
    void peersInOneJvmEndOnTheInJvmTransport() throws Exception {
        try (SJServerSocket server = defaults().serverSocket(PingServer.class, 0)) {
            assertThat(ping(server, defaults(), TransportPreferences.unset())).isEqualTo(new Ends("shm", "shm"));
        }
    }

    @Test
    void aSetupOverTcpInOneJvmMovesTheSessionToTheInJvmTransport() throws Exception {
        try (SJServerSocket server = defaults().serverSocket(PingServer.class, 0)) {
            TransportPreferences setupOverTcp = TransportPreferences.of(List.of("tcp"), List.of());
            assertThat(ping(server, defaults(), setupOverTcp)).isEqualTo(new Ends("shm", "shm"));
        }
    }

    @Test
    void theDefaultListsPutTheInJvmTransportFirstAndKeepIpcOutOfSetup() {
        var plan = org.sessionj.runtime.internal.transport.TransportManager.create(TransportPreferences.unset()).defaults();
        assertThat(plan.sessionNames()).containsExactly("shm", "ipc", "tcp", "tls");
        assertThat(plan.setupNames()).containsExactly("shm", "tcp");
    }

    @Test
    void ipcNamedAmongTheSetupTransportsCarriesSessionsOnly() throws Exception {
        SJRuntime both = runtime(SJRuntimeConfig.builder().transports("ipc", "tcp"));
        try (SJServerSocket server = both.serverSocket(PingServer.class, 0)) {
            List<String> offered = ((SessionServerSocket) server).offers().stream().map(Negotiation.Offer::transport).toList();
            assertThat(offered).containsExactly("ipc", "tcp");
            // In one JVM, ipc reaches the requester too (same host): the session moves to it.
            assertThat(ping(server, both, TransportPreferences.unset())).isEqualTo(new Ends("ipc", "ipc"));
        }
        assertThatThrownBy(() -> runtime(SJRuntimeConfig.builder().setupTransports("ipc")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no setup transport in [ipc]").hasMessageContaining("carry sessions only");
    }

    @Test
    void aRequesterOnThisHostThatPrefersIpcGetsIpcAndOneWithoutIpcGetsTcp() throws Exception {
        try (SJServerSocket server = defaults().serverSocket(PingServer.class, 0)) {
            assertThat(ping(server, defaults(), TransportPreferences.session("ipc", "tcp"))).isEqualTo(new Ends("ipc", "ipc"));
            assertThat(ping(server, defaults(), TransportPreferences.session("tcp"))).isEqualTo(new Ends("tcp", "tcp"));
        }
        SJRuntime noIpc = runtime(SJRuntimeConfig.builder().sessionTransports("shm", "tcp"));
        try (SJServerSocket server = noIpc.serverSocket(PingServer.class, 0)) {
            assertThat(ping(server, defaults(), TransportPreferences.session("ipc", "tcp"))).isEqualTo(new Ends("tcp", "tcp"));
        }
    }

    @Test
    void anAgreedIpcThatCannotConnectFallsBackToTheNextCommonTransport(@TempDir Path serverDir, @TempDir Path requesterDir)
            throws Exception {
        // Two runtimes whose ipc transports look in different directories (as two JVMs with different
        // sessionj.ipc.dir would): they agree on ipc, the requester cannot reach it, and moves on to tcp.
        SJRuntime server;
        SJRuntime requester;
        try {
            System.setProperty("sessionj.ipc.dir", serverDir.toString());
            server = defaults();
            System.setProperty("sessionj.ipc.dir", requesterDir.toString());
            requester = defaults();
        } finally {
            System.clearProperty("sessionj.ipc.dir");
        }
        try (SJServerSocket socket = server.serverSocket(PingServer.class, 0)) {
            assertThat(ping(socket, requester, TransportPreferences.session("ipc", "tcp"))).isEqualTo(new Ends("tcp", "tcp"));
            // With nothing to fall back on, the request fails and names the transport (the server waits on).
            CompletableFuture<SJSocket> accept = CompletableFuture.supplyAsync(
                    () -> socket.accept(java.time.Duration.ofSeconds(20)));
            assertThatThrownBy(() -> requester.service(PingClient.class, "localhost", socket.port(),
                    TransportPreferences.session("ipc")).request())
                    .isInstanceOf(SJIOException.class)
                    .hasMessageContaining("agreed on transport ipc").hasMessageContaining("cannot be reached");
            socket.close();
            assertThat(acceptFailure(accept)).isInstanceOf(SJIOException.class);
        }
    }

    @Test
    void aSameHostOfferIsMadeOnlyToARequesterOnThisHost() {
        var offers = List.of(new Negotiation.Offer("shm", 1, Negotiation.Reach.JVM),
                new Negotiation.Offer("ipc", 2, Negotiation.Reach.HOST), new Negotiation.Offer("tcp", 3, Negotiation.Reach.NETWORK));
        var hello = new Negotiation.Hello(Negotiation.R3_NEGOTIATE, java.util.UUID.randomUUID(),
                org.sessionj.runtime.internal.transport.HostIdentity.local(), List.of("shm", "ipc", "tcp"));
        assertThat(Negotiation.agree(hello.session(), hello.nearness(), offers))
                .isEqualTo(org.sessionj.runtime.internal.transport.HostIdentity.local().isEmpty() ? "tcp" : "ipc");
        var elsewhere = new Negotiation.Hello(Negotiation.R3_NEGOTIATE, java.util.UUID.randomUUID(),
                "linux:another-boot;net:[1];mnt:[2];someone", List.of("shm", "ipc", "tcp"));
        assertThat(Negotiation.agree(elsewhere.session(), elsewhere.nearness(), offers)).isEqualTo("tcp");
        var sameJvm = new Negotiation.Hello(Negotiation.R3_NEGOTIATE,
                org.sessionj.runtime.internal.transport.TransportManager.RUNTIME_ID, "", List.of("shm", "ipc", "tcp"));
        assertThat(Negotiation.agree(sameJvm.session(), sameJvm.nearness(), offers)).isEqualTo("shm");
    }

    @Test
    void aRequesterPreferringTcpGetsTcp() throws Exception {
        try (SJServerSocket server = defaults().serverSocket(PingServer.class, 0)) {
            assertThat(ping(server, defaults(), TransportPreferences.session("tcp"))).isEqualTo(new Ends("tcp", "tcp"));
        }
    }

    @Test
    void aRequesterAskingForTlsOnlyGetsTlsFromADefaultServer() throws Exception {
        // The default server offers TLS too (key material is configured), on a port of its own.
        try (SJServerSocket server = defaults().serverSocket(PingServer.class, 0)) {
            List<String> offered = ((SessionServerSocket) server).offers().stream().map(Negotiation.Offer::transport).toList();
            assertThat(offered).containsExactly("shm", "ipc", "tcp", "tls");
            assertThat(ping(server, defaults(), TransportPreferences.session("tls"))).isEqualTo(new Ends("tls", "tls"));
        }
    }

    @Test
    void aServerAskingForTlsOnlyGetsTlsFromADefaultRequester() throws Exception {
        SJRuntime tlsOnly = runtime(SJRuntimeConfig.builder().sessionTransports("tls"));
        try (SJServerSocket server = tlsOnly.serverSocket(PingServer.class, 0)) {
            var offers = ((SessionServerSocket) server).offers();
            assertThat(offers).hasSize(1);
            assertThat(offers.get(0).transport()).isEqualTo("tls");
            assertThat(offers.get(0).port()).as("TLS listens on a port of its own").isNotEqualTo(server.port());
            assertThat(ping(server, defaults(), TransportPreferences.unset())).isEqualTo(new Ends("tls", "tls"));
        }
    }

    @Test
    void theTlsSessionCarriesThePeersCertificate() throws Exception {
        SJRuntime tlsOnly = runtime(SJRuntimeConfig.builder().sessionTransports("tls"));
        try (SJServerSocket server = tlsOnly.serverSocket(PingServer.class, 0)) {
            CompletableFuture<Void> accepted = CompletableFuture.runAsync(() -> {
                try (SJSocket s = server.accept(java.time.Duration.ofSeconds(20))) {
                    s.send(s.receiveInt());
                }
            });
            try (SJSocket s = defaults().service(PingClient.class, "localhost", server.port()).request()) {
                assertThat(SJRuntime.peerPrincipal(s)).hasValueSatisfying(
                        p -> assertThat(p.getName()).contains("negotiation-test"));
                s.send(1);
                s.receiveInt();
            } catch (RuntimeException e) {
                assertThat(acceptFailure(accepted)).as("the accepter's failure").isNull();
                throw e;
            }
            accepted.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void tlsFromTheFirstByteWhenTlsIsTheSetupTransportToo() throws Exception {
        SJRuntime tlsOnly = runtime(SJRuntimeConfig.builder().transports("tls"));
        try (SJServerSocket server = tlsOnly.serverSocket(PingServer.class, 0)) {
            assertThat(((SessionServerSocket) server).offers().get(0).port()).isEqualTo(server.port());
            assertThat(ping(server, tlsOnly, TransportPreferences.unset())).isEqualTo(new Ends("tls", "tls"));
        }
    }

    @Test
    void aRequesterDemandingTlsFromAServerWithoutTlsFailsOnBothSidesWithoutFallingBack() throws Exception {
        SJRuntime plain = runtime(SJRuntimeConfig.builder().sessionTransports("shm", "tcp"));
        try (SJServerSocket server = plain.serverSocket(PingServer.class, 0)) {
            CompletableFuture<SJSocket> accept = CompletableFuture.supplyAsync(
                    () -> server.accept(java.time.Duration.ofSeconds(20)));
            assertThatThrownBy(() -> defaults().service(PingClient.class, "localhost", server.port(),
                    TransportPreferences.session("tls")).request())
                    .isInstanceOf(SJIOException.class)
                    .hasMessageContaining("no session transport both sides accept")
                    .hasMessageContaining("the requester accepts [tls]")
                    .hasMessageContaining("the accepter offers [shm, tcp]");
            // The accepter's accept() does not fail for it: the request is counted and accept waits on.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (SJRuntime.failedHandshakes(server) == 0 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            assertThat(SJRuntime.failedHandshakes(server)).isEqualTo(1);
            assertThat(accept).isNotDone();
            server.close();
            assertThat(acceptFailure(accept)).isInstanceOf(SJIOException.class).hasMessageContaining("closed");
        }
    }

    @Test
    void anInJvmOnlyOfferIsNotMadeToAnotherJvm() {
        var offers = List.of(new Negotiation.Offer("shm", 50000, true), new Negotiation.Offer("tcp", 4000, false));
        assertThat(Negotiation.agree(List.of("shm", "tcp"), false, offers)).isEqualTo("tcp");
        assertThat(Negotiation.agree(List.of("shm", "tcp"), true, offers)).isEqualTo("shm");
        assertThat(Negotiation.agree(List.of("shm"), false, offers)).isNull();
    }

    @Test
    void thePapersFlagsFollowFromThePreferences() {
        var tcpOnly = List.of(new Negotiation.Offer("tcp", 4000, false));
        var both = List.of(new Negotiation.Offer("shm", 1, true), new Negotiation.Offer("tcp", 4000, false));
        var tls = List.of(new Negotiation.Offer("tls", 4001, false));
        assertThat(Negotiation.requesterFlag("tcp", List.of("tls"))).isEqualTo(Negotiation.R1_MANDATORY);
        assertThat(Negotiation.requesterFlag("tcp", List.of("tcp", "shm"))).isEqualTo(Negotiation.R2_UNNECESSARY);
        assertThat(Negotiation.requesterFlag("tcp", List.of("shm", "tcp"))).isEqualTo(Negotiation.R3_NEGOTIATE);
        assertThat(Negotiation.accepterFlag("tcp", tcpOnly)).isEqualTo(Negotiation.A1_ONLY_SETUP);
        assertThat(Negotiation.accepterFlag("tcp", both)).isEqualTo(Negotiation.A2_SETUP_SUPPORTED);
        assertThat(Negotiation.accepterFlag("tcp", tls)).isEqualTo(Negotiation.A3_OTHERS_ONLY);
        // R2/R3 with A1, and R2 with A2: the setup connection carries the session.
        assertThat(Negotiation.agree(List.of("tcp"), true, tcpOnly)).isEqualTo("tcp");
        assertThat(Negotiation.agree(List.of("shm", "tcp"), false, tcpOnly)).isEqualTo("tcp");
        assertThat(Negotiation.agree(List.of("tcp", "shm"), true, both)).isEqualTo("tcp");
        // R1 with A1: no session.
        assertThat(Negotiation.agree(List.of("tls"), true, tcpOnly)).isNull();
    }

    @Test
    void twoSetupTransportsSharingTcpPortsAreAConfigurationError() {
        assertThatThrownBy(() -> runtime(SJRuntimeConfig.builder().setupTransports("tcp", "tls")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("setup transports tcp and tls map session ports to the same ports")
                .hasMessageContaining("keep the other as a session transport");
    }

    @Test
    void perServerPreferencesOverrideTheRuntimesForThatServerOnly() throws Exception {
        SJRuntime runtime = defaults();
        try (SJServerSocket tcpOnly = runtime.serverSocket(PingServer.class, 0, TransportPreferences.session("tcp"));
                SJServerSocket ordinary = runtime.serverSocket(PingServer.class, 0)) {
            assertThat(ping(tcpOnly, defaults(), TransportPreferences.unset())).isEqualTo(new Ends("tcp", "tcp"));
            assertThat(ping(ordinary, defaults(), TransportPreferences.unset())).isEqualTo(new Ends("shm", "shm"));
        }
    }

    @Test
    void anUninstalledTransportInPerSocketPreferencesIsNamed() {
        assertThatThrownBy(() -> defaults().serverSocket(PingServer.class, 0, TransportPreferences.session("udp")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("transport 'udp' is not installed");
    }

    @Test
    void aDirectRequestOverATransportTheServerDoesNotOfferIsRefused() throws Exception {
        SJRuntime tlsOnly = runtime(SJRuntimeConfig.builder().setupTransports("tcp").sessionTransports("tls"));
        try (SJServerSocket server = tlsOnly.serverSocket(PingServer.class, 0)) {
            CompletableFuture<SJSocket> accept = CompletableFuture.supplyAsync(
                    () -> server.accept(java.time.Duration.ofSeconds(20)));
            try (Connection raw = new TcpTransport().connect("localhost", server.port(), TimeUnit.SECONDS.toNanos(10))) {
                ByteBuf request = raw.alloc().buffer();
                request.writeByte(0x40).writeByte('S').writeByte('J').writeByte(2);
                byte[] type = "cbegin.!<int>.?(int)".getBytes(StandardCharsets.UTF_8);
                request.writeInt(type.length).writeBytes(type);
                raw.write(request);
                raw.flush();
                ByteBuf reply = raw.read(TimeUnit.SECONDS.toNanos(10));
                try {
                    assertThat(reply.readByte()).as("REJECT").isEqualTo((byte) 0x42);
                    assertThat(reply.readByte()).as("refused").isEqualTo((byte) 2);
                    assertThat(reply.readCharSequence(reply.readInt(), StandardCharsets.UTF_8).toString())
                            .contains("transport tcp is not a session transport of this server socket");
                } finally {
                    reply.release();
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (SJRuntime.failedHandshakes(server) == 0 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            assertThat(SJRuntime.failedHandshakes(server)).as("refused and counted; accept() waits on").isEqualTo(1);
            assertThat(accept).isNotDone();
        }
    }

    @Test
    void theSessionPortIsServedByEverySetupTransport() throws Exception {
        SJRuntime requester = runtime(SJRuntimeConfig.builder().transports("tcp"));
        try (SJServerSocket server = defaults().serverSocket(PingServer.class, 0)) {
            // A requester that has only TCP reaches the same session port as one that sets up in-JVM.
            assertThat(ping(server, requester, TransportPreferences.unset())).isEqualTo(new Ends("tcp", "tcp"));
            assertThat(ping(server, defaults(), TransportPreferences.unset())).isEqualTo(new Ends("shm", "shm"));
        }
    }
}
