package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.session.SessionContext;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.runtime.internal.session.SessionService;
import org.sessionj.runtime.internal.transport.LocalRoutes.Route;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.transport.session.Protocols.PingClient;
import org.sessionj.transport.session.Protocols.PingServer;

/**
 * A requester whose session was moved to a same-host acceptor (ipc) goes straight to that acceptor
 * next time, without the tcp set-up connection (docs/negotiation.md, "Straight to a local acceptor"),
 * and falls back to the session port whenever the remembered acceptor is gone, refuses the memory,
 * or belongs to another server socket now. Requester and servers run in one JVM with tcp as the only
 * setup transport, so the in-JVM transport does not take the session first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalRouteTest {
    private static final TransportPreferences TCP_THEN_IPC = TransportPreferences.of(List.of("tcp"), List.of("ipc", "tcp"));

    private final SJRuntime servers = SJRuntime.create(SJRuntimeConfig.builder().build());
    private final List<SJServerSocket> opened = new java.util.ArrayList<>();

    @AfterEach
    void closeServers() {
        opened.forEach(SJServerSocket::close);
    }

    private SessionServerSocket server() {
        SJServerSocket server = servers.serverSocket(PingServer.class, 0);
        opened.add(server);
        return (SessionServerSocket) server;
    }

    private static TransportManager requester() {
        return TransportManager.create(TCP_THEN_IPC);
    }

    /** One ping session from {@code manager} to {@code port}, accepted by {@code server}: the transport of each end. */
    private static List<String> ping(TransportManager manager, int port, SJServerSocket server) throws Exception {
        CompletableFuture<String> accepted = CompletableFuture.supplyAsync(() -> {
            try (SJSocket s = server.accept(Duration.ofSeconds(20))) {
                s.send(s.receiveInt() + 1);
                return SJRuntime.transportOf(s);
            }
        });
        SessionService service = new SessionService(ProtocolRegistry.of(PingClient.class), "localhost", port,
                manager.defaults(), SessionContext.of(manager, SJRuntimeConfig.defaults()));
        String requesterEnd;
        try (SJSocket s = service.request()) {
            s.send(41);
            assertThat(s.receiveInt()).isEqualTo(42);
            requesterEnd = SJRuntime.transportOf(s);
        }
        return List.of(requesterEnd, accepted.get(20, TimeUnit.SECONDS));
    }

    private static int ipcPort(SessionServerSocket server) {
        return server.offers().stream().filter(o -> o.transport().equals("ipc")).findFirst().orElseThrow().port();
    }

    @Test
    void aSessionMovedToIpcTeachesTheRouteAndTheNextGoesStraightThereWithoutTcp() throws Exception {
        SessionServerSocket server = server();
        TransportManager manager = requester();
        assertThat(ping(manager, server.port(), server)).containsExactly("ipc", "ipc");
        Route route = manager.routes().find("localhost", server.port());
        assertThat(route).isNotNull();
        assertThat(route.transport()).isEqualTo("ipc");
        assertThat(route.port()).isEqualTo(ipcPort(server));

        // Nothing listens on tcp port 1: a session there can only have gone straight to the ipc acceptor.
        manager.routes().remember("localhost", 1, route);
        assertThat(ping(manager, 1, server)).containsExactly("ipc", "ipc");
        assertThat(ping(manager, server.port(), server)).containsExactly("ipc", "ipc");
        assertThat(manager.routes().find("localhost", server.port())).isEqualTo(route);
        assertThat(server.failedHandshakes()).isZero();
    }

    @Test
    void anAcceptorOfAnotherServerSocketRefusesTheRouteAsStaleAndTheSessionPortDecides() throws Exception {
        SessionServerSocket wanted = server();
        SessionServerSocket other = server();
        TransportManager manager = requester();
        ping(manager, wanted.port(), wanted);
        Route learnt = manager.routes().find("localhost", wanted.port());
        // As if the wanted server's ipc port now belonged to another server socket.
        manager.routes().remember("localhost", wanted.port(), new Route("ipc", ipcPort(other), learnt.acceptor()));

        assertThat(ping(manager, wanted.port(), wanted)).containsExactly("ipc", "ipc");
        assertThat(manager.routes().find("localhost", wanted.port())).isEqualTo(learnt);
        assertThat(other.failedHandshakes()).as("a stale route is not the other server's failure").isZero();
        assertThat(other.pendingHandshakes()).as("and gives it no session").isZero();
    }

    @Test
    void aRouteToAClosedAcceptorIsForgottenAndTheSessionPortDecides() throws Exception {
        SessionServerSocket wanted = server();
        SessionServerSocket gone = server();
        TransportManager manager = requester();
        ping(manager, gone.port(), gone);
        Route dead = manager.routes().find("localhost", gone.port());
        gone.close();
        manager.routes().remember("localhost", wanted.port(), dead);

        assertThat(ping(manager, wanted.port(), wanted)).containsExactly("ipc", "ipc");
        assertThat(manager.routes().find("localhost", wanted.port()).port()).isEqualTo(ipcPort(wanted));
    }

    @Test
    void anAcceptorThatCannotMapTheMemoryMakesTheRequesterForgetTheRoute(@TempDir Path ipcDir) throws Exception {
        SessionServerSocket server = server();
        TransportManager manager;
        System.setProperty("sessionj.ipc.dir", ipcDir.toString());
        try {
            manager = requester(); // its ipc transport finds acceptors in ipcDir: only the one below
        } finally {
            System.clearProperty("sessionj.ipc.dir");
        }
        int fakePort = 50123;
        try (ServerSocketChannel refusing = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            refusing.bind(UnixDomainSocketAddress.of(ipcDir.resolve(fakePort + ".sock")));
            CompletableFuture<Void> refused = CompletableFuture.runAsync(() -> refuseOne(refusing));
            Route route = new Route("ipc", fakePort, UUID.randomUUID());
            manager.routes().remember("localhost", server.port(), route);

            // The requester cannot reach the server's real ipc acceptor (another directory): tcp it is.
            assertThat(ping(manager, server.port(), server)).containsExactly("tcp", "tcp");
            refused.get(20, TimeUnit.SECONDS);
            assertThat(manager.routes().find("localhost", server.port())).as("forgotten, and nothing learnt").isNull();
        }
    }

    /** Answers one ipc OPEN with FAILED, as an acceptor that cannot map the requester's memory does. */
    private static void refuseOne(ServerSocketChannel server) {
        try (SocketChannel socket = server.accept()) {
            byte[] reason = "cannot map it".getBytes(StandardCharsets.UTF_8);
            ByteBuffer failed = ByteBuffer.allocate(3 + reason.length).put((byte) 0).putShort((short) reason.length)
                    .put(reason).flip();
            while (failed.hasRemaining()) {
                socket.write(failed);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aRouteIsNeverTakenToAnotherHostNorForATransportThePlanLeavesOut() throws Exception {
        SessionServerSocket server = server();
        TransportManager manager = requester();
        ping(manager, server.port(), server);
        Route route = manager.routes().find("localhost", server.port());
        TransportManager.Plan plan = manager.defaults();
        assertThat(manager.localRoute(plan, "localhost", server.port())).isEqualTo(route);

        manager.routes().remember("192.0.2.1", server.port(), route); // TEST-NET-1: never this host
        assertThat(manager.localRoute(plan, "192.0.2.1", server.port())).isNull();
        assertThat(manager.localRoute(manager.plan(TransportPreferences.of(List.of("tcp"), List.of("tcp"))), "localhost",
                server.port())).as("a plan without ipc").isNull();
        assertThat(manager.localRoute(manager.plan(TransportPreferences.of(List.of("shm", "tcp"), List.of("ipc", "tcp"))),
                "localhost", server.port())).as("the in-JVM setup transport reaches the server: it decides").isNull();
        System.setProperty("sessionj.ipc.straight", "false");
        TransportManager off;
        try {
            off = requester();
        } finally {
            System.clearProperty("sessionj.ipc.straight");
        }
        off.routes().remember("localhost", server.port(), route);
        assertThat(off.localRoute(off.defaults(), "localhost", server.port())).as("sessionj.ipc.straight=false").isNull();
    }
}
