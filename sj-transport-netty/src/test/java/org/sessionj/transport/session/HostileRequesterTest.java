package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.session.SessionServerSocket;

/**
 * Raw TCP requesters that stall, lie or overload a server: {@code accept()} returns only compatible
 * sessions, never fails for one bad requester (it is counted), and serves a real client next to any
 * number of stalled handshakes, up to the pending limit.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileRequesterTest {
    /** Long enough that a server handshaking one connection at a time could not pass these tests. */
    private static final Duration STALL = Duration.ofSeconds(40);

    private final List<Socket> raw = new ArrayList<>();
    /** Not the common pool: with one worker on two cores, a blocked accept would hold back the client. */
    private final java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void closeRawSockets() throws IOException {
        threads.shutdownNow();
        for (Socket s : raw) {
            s.close();
        }
    }

    private static SJRuntime runtime(int maxPending) {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").initiationTimeout(STALL)
                .maxPendingHandshakes(maxPending).build());
    }

    private Socket connect(int port) throws IOException {
        Socket s = new Socket();
        raw.add(s);
        s.connect(new InetSocketAddress("localhost", port), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    /** A frame holding a direct session REQUEST (no negotiation) with {@code type}. */
    private static void sendRequest(Socket s, String type) throws IOException {
        byte[] text = type.getBytes(StandardCharsets.UTF_8);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(4 + 4 + text.length);
        out.write(new byte[] {0x40, 'S', 'J', 2});
        out.writeInt(text.length);
        out.write(text);
        out.flush();
    }

    /** The first byte of the server's answer frame, or -1 when it closed without one. */
    private static int answerTag(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        try {
            int length = in.readInt();
            byte[] frame = in.readNBytes(length);
            return frame.length == 0 ? -1 : frame[0];
        } catch (java.io.EOFException e) {
            return -1;
        }
    }

    private CompletableFuture<SJSocket> acceptAsync(SJServerSocket server) {
        return CompletableFuture.supplyAsync(() -> server.accept(Duration.ofSeconds(30)), threads);
    }

    /** A real client's whole ping session. */
    private static void ping(SJRuntime runtime, int port) {
        try (SJSocket s = runtime.service(Protocols.PingClient.class, "localhost", port).request()) {
            Scenarios.pingClient(s);
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void stalledRequestersDoNotHoldBackARealClient() throws Exception {
        SJRuntime runtime = runtime(SJRuntimeConfig.DEFAULT_MAX_PENDING_HANDSHAKES);
        try (SJServerSocket server = runtime.serverSocket(Protocols.PingServer.class, 0)) {
            CompletableFuture<SJSocket> accepted = acceptAsync(server);
            for (int i = 0; i < 100; i++) {
                Socket s = connect(server.port());
                if (i % 2 == 1) {
                    s.getOutputStream().write(new byte[] {0, 0}); // half a length prefix, then nothing
                    s.getOutputStream().flush();
                }
            }
            await(() -> ((SessionServerSocket) server).pendingHandshakes() == 100, "100 stalled handshakes");
            CompletableFuture<Void> client = CompletableFuture.runAsync(() -> ping(runtime, server.port()), threads);
            try (SJSocket s = accepted.get(20, TimeUnit.SECONDS)) {
                Scenarios.pingServer(s);
            }
            client.get(20, TimeUnit.SECONDS);
            assertThat(SJRuntime.failedHandshakes(server)).as("the stalled ones are still waiting").isZero();
        }
    }

    @Test
    void badRequestersAreRefusedAndCountedWhileAcceptServesTheNextGoodOne() throws Exception {
        SJRuntime runtime = runtime(SJRuntimeConfig.DEFAULT_MAX_PENDING_HANDSHAKES);
        try (SJServerSocket server = runtime.serverSocket(Protocols.PingServer.class, 0)) {
            java.util.Queue<org.sessionj.api.SJException> told = new java.util.concurrent.ConcurrentLinkedQueue<>();
            SJRuntime.onFailedHandshake(server, told::add);
            CompletableFuture<SJSocket> accepted = acceptAsync(server);
            int n = 1000;
            List<String> lies = List.of(
                    "cbegin.!<String>.?(int)", // incompatible
                    "cbegin.!<int", // does not parse
                    "cbegin." + "![".repeat(n) + "!<int>" + "]*".repeat(n) + ".?(int)", // nested past the limit
                    "cbegin." + "!{A: ".repeat(n) + "!<int>" + "}".repeat(n), // branches past the limit
                    "cbegin.!<java.util.List" + "<java.util.List".repeat(n) + ">".repeat(n + 1) + ">");
            for (String lie : lies) {
                Socket s = connect(server.port());
                sendRequest(s, lie);
                assertThat(answerTag(s)).as("the answer to %s", lie.substring(0, Math.min(40, lie.length())))
                        .isEqualTo(0x42); // REJECT
            }
            Socket garbage = connect(server.port());
            garbage.getOutputStream().write(new byte[] {0, 0, 0, 3, 0x7f, 1, 2});
            garbage.getOutputStream().flush();
            assertThat(answerTag(garbage)).as("a frame that is no request").isIn(-1, 0x42);
            Socket tooLong = connect(server.port());
            tooLong.getOutputStream().write(new byte[] {0x7f, 0, 0, 0}); // a 2 GiB length claim
            tooLong.getOutputStream().flush();
            assertThat(answerTag(tooLong)).as("an oversize length").isEqualTo(-1);

            await(() -> SJRuntime.failedHandshakes(server) == lies.size() + 2, "every bad request counted");
            assertThat(accepted).as("no bad requester reached accept()").isNotDone();
            // In any order: a handshake tells the listener after its REJECT is out, so the next requester's
            // refusal may be told first (this asserted the first element, and failed so once under load).
            assertThat(told).as("the listener heard every refusal").hasSize(lies.size() + 2)
                    .hasAtLeastOneElementOfType(org.sessionj.api.SJIncompatibleSessionException.class);
            CompletableFuture<Void> client = CompletableFuture.runAsync(() -> ping(runtime, server.port()), threads);
            try (SJSocket s = accepted.get(20, TimeUnit.SECONDS)) {
                Scenarios.pingServer(s);
            }
            client.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void atThePendingLimitTheOldestStalledHandshakeIsDroppedForANewConnection() throws Exception {
        SJRuntime runtime = runtime(2);
        try (SJServerSocket server = runtime.serverSocket(Protocols.PingServer.class, 0)) {
            java.util.Queue<org.sessionj.api.SJException> told = new java.util.concurrent.ConcurrentLinkedQueue<>();
            SJRuntime.onFailedHandshake(server, told::add);
            Socket oldest = connect(server.port());
            await(() -> ((SessionServerSocket) server).pendingHandshakes() == 1, "one stalled handshake");
            Socket younger = connect(server.port());
            younger.getOutputStream().write(0); // one byte of a frame header, then nothing
            CompletableFuture<SJSocket> accepted = acceptAsync(server);
            await(() -> ((SessionServerSocket) server).pendingHandshakes() == 2, "two stalled handshakes");
            // At the limit: the real client's connection waits until the oldest has stalled for 5 s (no
            // handshake succeeds meanwhile), then it is dropped for it (not after the 40 s initiation timeout).
            long start = System.nanoTime();
            CompletableFuture<Void> client = CompletableFuture.runAsync(() -> ping(runtime, server.port()), threads);
            try (SJSocket s = accepted.get(20, TimeUnit.SECONDS)) {
                Scenarios.pingServer(s);
            }
            client.get(20, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("served long before the initiation timeout")
                    .isLessThan(STALL.dividedBy(2));
            // Closed, with nothing sent but heartbeats (four 0xFF bytes each, once it was silent for their interval).
            byte[] heard = oldest.getInputStream().readAllBytes(); // returns at the close
            for (byte b : heard) {
                assertThat(b).as("what the dropped requester heard before its close").isEqualTo((byte) 0xFF);
            }
            assertThat(SJRuntime.failedHandshakes(server)).isEqualTo(1);
            assertThat(told).singleElement().isInstanceOf(SJTimeoutException.class).extracting(Throwable::getMessage)
                    .asString().contains("dropped: the requester sent no session request within PT5S")
                    .contains("limit of 2 pending handshakes (sessionj.maxPendingHandshakes)");
            assertThat(((SessionServerSocket) server).pendingHandshakes()).as("the younger one still waits").isEqualTo(1);
        }
    }

    @Test
    void aBurstOfRealRequestersPastThePendingLimitWaitsItsTurnAndNoneIsDropped() throws Exception {
        SJRuntime runtime = runtime(2);
        try (SJServerSocket server = runtime.serverSocket(Protocols.PingServer.class, 0)) {
            List<CompletableFuture<Void>> clients = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                clients.add(CompletableFuture.runAsync(() -> ping(runtime, server.port()), threads));
            }
            for (int i = 0; i < 20; i++) {
                try (SJSocket s = server.accept(Duration.ofSeconds(20))) {
                    Scenarios.pingServer(s);
                }
            }
            CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            assertThat(SJRuntime.failedHandshakes(server)).as("real requesters send their request at once").isZero();
        }
    }

    @Test
    void closingTheServerClosesStalledHandshakesAndFailsWaitingAccepts() throws Exception {
        SJRuntime runtime = runtime(SJRuntimeConfig.DEFAULT_MAX_PENDING_HANDSHAKES);
        SJServerSocket server = runtime.serverSocket(Protocols.PingServer.class, 0);
        Socket stalled = connect(server.port());
        CompletableFuture<SJSocket> accepted = acceptAsync(server);
        await(() -> ((SessionServerSocket) server).pendingHandshakes() == 1, "a stalled handshake");
        server.close();
        assertThat(stalled.getInputStream().read()).as("the stalled connection is closed").isEqualTo(-1);
        assertThatThrownBy(() -> accepted.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(org.sessionj.api.SJIOException.class)
                .cause().isNotInstanceOf(SJTimeoutException.class).hasMessageContaining("closed");
    }

    /**
     * adv15 A26 over tcp: a server whose program stopped calling {@code accept()} refuses requests past its
     * accept queue at once and fails the queued ones at its accept timeout, each requester told why (before,
     * each {@code request()} returned and its first receive waited for ever).
     */
    @Test
    void aServerThatStopsAcceptingRefusesPastItsQueueAndFailsQueuedSessionsAtTheAcceptTimeout() {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp")
                .acceptTimeout(Duration.ofSeconds(4)).acceptQueue(2).build()); // refused once the oldest waited 2 s
        try (SJServerSocket server = runtime.serverSocket(Protocols.PingServer.class, 0)) {
            org.sessionj.api.SJService service = runtime.service(Protocols.PingClient.class, "localhost", server.port());
            SJSocket a = service.request();
            SJSocket b = service.request();
            assertThatThrownBy(service::request).isInstanceOf(org.sessionj.api.SJIOException.class)
                    .hasMessageContaining("has 2 sessions agreed and not yet taken by accept(), its limit"
                            + " (sessionj.acceptQueue), and the oldest has waited PT2");
            for (SJSocket queued : List.of(a, b)) {
                // The send may already find the session failed (b's expires while a's receive waits): either fails so.
                assertThatThrownBy(() -> {
                    queued.send(41);
                    queued.receiveInt();
                }).isInstanceOf(org.sessionj.api.SJIOException.class)
                        .hasMessageContaining("the server did not accept the session within PT4S (sessionj.acceptTimeout"
                                + " at the server): session port " + server.port());
                queued.close();
            }
            await(() -> SJRuntime.failedHandshakes(server) == 3, "the refusal and both expiries counted");
            await(() -> ((SessionServerSocket) server).pendingHandshakes() == 0, "every slot back");
            CompletableFuture<SJSocket> accepted = acceptAsync(server);
            SJSocket client = service.request();
            try (SJSocket s = accepted.join()) {
                client.send(41);
                Scenarios.pingServer(s);
                assertThat(client.receiveInt()).isEqualTo(42);
            }
            client.close();
        }
    }
}
