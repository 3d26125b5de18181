package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;

/**
 * A server socket's accept queue (adv15 A26): {@code request()} returns once the session is agreed, before the
 * server's program takes it, so a server that stopped calling {@code accept()} left its requesters in their first
 * receive for ever. Now a session not accepted within {@code sessionj.acceptTimeout} is failed, its requester
 * told why, and while {@code sessionj.acceptQueue} sessions wait a new request is refused.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AcceptQueueTest {
    private static SJRuntime runtime(SJRuntimeConfig.Builder config) {
        return SJRuntime.create(config.transports("shm").build());
    }

    /** The newcomer's server of the finding: it accepts once; the second requester learns it was never accepted. */
    @Test
    void aSessionTheServerNeverAcceptsFailsItsRequesterAtTheAcceptTimeoutWithTheReason() throws Exception {
        SJRuntime runtime = runtime(SJRuntimeConfig.builder().acceptTimeout(Duration.ofMillis(300)));
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            List<SJException> told = new CopyOnWriteArrayList<>();
            SJRuntime.onFailedHandshake(server, told::add);
            SJService service = runtime.service(IntClient.class, "localhost", server.port());
            try (SJSocket first = service.request(); SJSocket accepted = server.accept(Duration.ofSeconds(10))) {
                first.send(1);
                accepted.send(accepted.receiveInt() + 1);
                assertThat(first.receiveInt()).isEqualTo(2);
            }
            SJSocket second = service.request(); // agreed and queued: nobody will accept it
            second.send(2);
            long started = System.nanoTime();
            assertThatThrownBy(second::receiveInt).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("the peer failed the session: the server did not accept the session within"
                            + " PT0.3S (sessionj.acceptTimeout at the server): session port " + server.port())
                    .hasMessageContaining("did not call accept() for it in that time (is its accept loop running?)");
            assertThat(System.nanoTime() - started).as("failed at its timeout, not held")
                    .isLessThan(TimeUnit.SECONDS.toNanos(20));
            second.close();
            assertThat(SJRuntime.failedHandshakes(server)).as("counted on the server").isEqualTo(1);
            assertThat(told).singleElement().isInstanceOf(SJTimeoutException.class)
                    .extracting(Throwable::getMessage).asString().contains("sessionj.acceptTimeout");
            assertThat(pending(server)).as("its slot came back").isZero();

            // The server serves the next session as usual.
            try (SJSocket third = service.request(); SJSocket accepted = server.accept(Duration.ofSeconds(10))) {
                third.send(3);
                accepted.send(accepted.receiveInt() + 1);
                assertThat(third.receiveInt()).isEqualTo(4);
            }
        }
    }

    /** A session taken before its timeout is the program's: the timeout never touches it, however long it then lasts. */
    @Test
    void aSessionAcceptedInTimeIsNotFailedLater() throws Exception {
        SJRuntime runtime = runtime(SJRuntimeConfig.builder().acceptTimeout(Duration.ofMillis(200)));
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            SJSocket client = runtime.service(IntClient.class, "localhost", server.port()).request();
            try (SJSocket accepted = server.accept(Duration.ofSeconds(10))) {
                // Three accept timeouts pass with the session accepted (a wait of the program's own, for a
                // request that never comes: the gap itself is what is tested).
                assertThatThrownBy(() -> server.accept(Duration.ofMillis(600))).isInstanceOf(SJTimeoutException.class);
                client.send(5);
                accepted.send(accepted.receiveInt() + 1);
                assertThat(client.receiveInt()).isEqualTo(6);
            }
            client.close();
            assertThat(SJRuntime.failedHandshakes(server)).isZero();
        }
    }

    /**
     * While the queue is full and its oldest session has waited 5 s (the program stopped taking sessions), a new
     * requester is refused with why; once the program accepts, it is served again.
     */
    @Test
    void aRequestPastAStuckAcceptQueueIsRefusedWithTheReasonAndServedOnceTheProgramAccepts() throws Exception {
        SJRuntime runtime = runtime(SJRuntimeConfig.builder().acceptQueue(2).acceptTimeout(null));
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            SJService service = runtime.service(IntClient.class, "localhost", server.port());
            SJSocket a = service.request();
            SJSocket b = service.request();
            long started = System.nanoTime();
            assertThatThrownBy(service::request).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("the accepter refused the session: session port " + server.port()
                            + " has 2 sessions agreed and not yet taken by accept(), its limit (sessionj.acceptQueue),"
                            + " and the oldest has waited PT5")
                    .hasMessageContaining("is its accept loop running?");
            assertThat(System.nanoTime() - started).as("refused once the oldest had waited 5 s")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(4_900));
            assertThat(SJRuntime.failedHandshakes(server)).as("the refusal is counted and logged").isEqualTo(1);
            assertThat(pending(server)).as("the refused request holds no slot").isEqualTo(2);
            server.accept(Duration.ofSeconds(10)).close();
            a.close();
            try (SJSocket c = service.request(); SJSocket accepted = server.accept(Duration.ofSeconds(10));
                 SJSocket accepted2 = server.accept(Duration.ofSeconds(10))) {
                c.send(7);
                b.send(8);
                int first = accepted.receiveInt();
                int second = accepted2.receiveInt();
                assertThat(List.of(first, second)).containsExactly(8, 7); // b was queued first
                accepted.send(first);
                accepted2.send(second);
                assertThat(b.receiveInt()).isEqualTo(8);
                assertThat(c.receiveInt()).isEqualTo(7);
            }
            b.close();
        }
    }

    /**
     * A burst of requesters past the queue's bound, while the program takes sessions: each waits for room
     * and none is refused (refusing whenever the queue was full failed most of them).
     */
    @Test
    void aBurstPastTheAcceptQueueWaitsForRoomWhileTheProgramAccepts() throws Exception {
        SJRuntime runtime = runtime(SJRuntimeConfig.builder().acceptQueue(2));
        int burst = 40;
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            SJService service = runtime.service(IntClient.class, "localhost", server.port());
            List<java.util.concurrent.FutureTask<Integer>> requesters = new java.util.ArrayList<>();
            for (int i = 0; i < burst; i++) {
                int value = i;
                requesters.add(Peers.start(Peers.Threads.VIRTUAL, () -> {
                    try (SJSocket s = service.request()) {
                        s.send(value);
                        return s.receiveInt();
                    }
                }));
            }
            for (int i = 0; i < burst; i++) {
                try (SJSocket s = server.accept(Duration.ofSeconds(20))) {
                    s.send(s.receiveInt() + 100);
                }
            }
            for (int i = 0; i < burst; i++) {
                assertThat(Peers.join(requesters.get(i))).isEqualTo(i + 100);
            }
            assertThat(SJRuntime.failedHandshakes(server)).isZero();
        }
    }

    private static int pending(SJServerSocket server) {
        return ((org.sessionj.runtime.internal.session.SessionServerSocket) server).pendingHandshakes();
    }
}
