package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sessionj.api.SJ;
import org.sessionj.api.SJException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJScope;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.transport.shm.session.Peers.Threads;
import org.sessionj.transport.shm.session.TestProtocols.FeedClient;
import org.sessionj.transport.shm.session.TestProtocols.FeedServer;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;
import org.sessionj.transport.shm.session.TestProtocols.MismatchedServer;
import org.sessionj.transport.shm.session.TestProtocols.NotAProtocol;
import org.sessionj.transport.shm.session.TestProtocols.StreamClient;
import org.sessionj.transport.shm.session.TestProtocols.StreamServer;
import org.sessionj.transport.shm.session.TestProtocols.WaitClient;
import org.sessionj.transport.shm.session.TestProtocols.WaitServer;

/** Incompatible peers, vanished peers, timeouts, monitor violations and failure propagation. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FailureEndToEndTest {

    @Test
    void incompatibleTypesFailTheRequesterSayingWhereTheTypesDifferAndAcceptWaitsForTheNextRequest() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(MismatchedServer.class, 0)) {
            FutureTask<Object> accepter = Peers.start(Threads.VIRTUAL, () -> server.accept(Duration.ofMillis(300)));
            Throwable requesterFailure = Peers.failure(Peers.start(Threads.VIRTUAL,
                    () -> SJService.create(IntClient.class, "localhost", server.port()).request()));
            // where the two types part, not both whole types (which may be huge)
            assertThat(requesterFailure).isInstanceOf(SJIncompatibleSessionException.class)
                    .hasMessageContaining("incompatible session types: after cbegin: expected !<java.lang.String>.?(int)"
                            + " but found !<int>.?(int): sends int, which is not a subtype of the expected java.lang.String")
                    .hasMessageContaining("not dual, up to subtyping, to the accepter's " + MismatchedServer.class.getName());
            assertThat(Peers.failure(accepter)).as("accept() skips an incompatible request; it only times out")
                    .isInstanceOf(SJTimeoutException.class);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (SJRuntime.failedHandshakes(server) == 0 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the count follows the reject
            }
            assertThat(SJRuntime.failedHandshakes(server)).isEqualTo(1);
        }
    }

    @Test
    void aProtocolOfTheWrongSideIsRejectedWhenTheSocketIsMade() {
        assertThatThrownBy(() -> SJServerSocket.create(IntClient.class, 0))
                .isInstanceOf(SJException.class).hasMessageContaining("cbegin");
        assertThatThrownBy(() -> SJService.create(MismatchedServer.class, "localhost", 1))
                .isInstanceOf(SJException.class).hasMessageContaining("sbegin");
    }

    @Test
    void aClassThatIsNotAProtocolIsRejectedClearly() {
        assertThatThrownBy(() -> SJService.create(NotAProtocol.class, "localhost", 1))
                .isInstanceOf(SJException.class)
                .hasMessageContaining(NotAProtocol.class.getName())
                .hasMessageContaining("@org.sessionj.api.Protocol");
    }

    @Test
    void requestingAPortNobodyServesFails() {
        assertThatThrownBy(() -> SJService.create(IntClient.class, "localhost", 1).request())
                .isInstanceOf(SJIOException.class).hasMessageContaining("session port localhost:1");
    }

    /**
     * A program's exception on its way out of a session (a finally block or try-with-resources closes it
     * incomplete) stays the exception the caller sees: the close fails the session and tells the peer
     * without throwing a violation of its own, which replaced the program's exception in the finally form
     * and rode along as a suppressed one in try-with-resources (adv12 A4).
     */
    @Test
    @SuppressWarnings("sessionj") // the sessions are left by the program's own exception, on purpose
    void closingOnTheWayOutOfAFailureKeepsTheProgramsException() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0)) {
            for (boolean tryWithResources : new boolean[] {false, true}) {
                FutureTask<Object> accepter = Peers.start(Threads.PLATFORM, () -> {
                    SJSocket s = server.accept();
                    while (s.inwhile()) { // the client abandons the session after one round
                        s.receiveInt();
                    }
                    return null;
                });
                IllegalStateException boom = new IllegalStateException("the program's own failure");
                Throwable seen = org.assertj.core.api.Assertions.catchThrowable(() -> {
                    if (tryWithResources) {
                        try (SJSocket s = SJService.create(StreamClient.class, "localhost", server.port()).request()) {
                            s.outwhile(true);
                            s.send(1);
                            throw boom;
                        }
                    }
                    SJSocket s = SJService.create(StreamClient.class, "localhost", server.port()).request();
                    try {
                        s.outwhile(true);
                        s.send(1);
                        throw boom;
                    } finally {
                        s.close();
                    }
                });
                assertThat(seen).as("try-with-resources: " + tryWithResources).isSameAs(boom);
                assertThat(seen.getSuppressed()).isEmpty();
                assertThat(Peers.failure(accepter)).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("closed the session before completing it");
            }
        }
    }

    /**
     * The abandonment that no longer throws shows locally through the runtime's listener: it hears each
     * session of its runtime closed incomplete, on the closing thread, with the next action the type
     * expected; a listener that throws does not turn the close into a throw; complete sessions are not
     * reported.
     */
    @Test
    @SuppressWarnings("sessionj") // the session is abandoned on purpose
    void theRuntimesListenerHearsOfEachAbandonedSessionAndNothingElse() throws Exception {
        SJRuntime runtime = SJRuntime.create(org.sessionj.runtime.SJRuntimeConfig.defaults());
        java.util.List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        runtime.onAbandonedSession(e -> {
            heard.add(Thread.currentThread().getName() + ": " + e.getMessage());
            throw new AssertionError("a listener that fails"); // an Error too is logged, not thrown (adv14 A5)
        });
        try (SJServerSocket server = runtime.serverSocket(StreamServer.class, 0)) {
            for (boolean abandon : new boolean[] {true, false}) {
                FutureTask<Object> accepter = Peers.start(Threads.PLATFORM, () -> {
                    try (SJSocket s = server.accept()) {
                        while (s.inwhile()) {
                            s.receiveInt();
                        }
                        s.send(7);
                    }
                    return null;
                });
                SJSocket s = runtime.service(StreamClient.class, "localhost", server.port()).request();
                s.outwhile(true);
                s.send(1);
                if (!abandon) {
                    s.outwhile(false);
                    assertThat(s.receiveInt()).isEqualTo(7);
                }
                s.close(); // no throw, whether complete or not, and whatever the listener does
                if (abandon) {
                    assertThat(Peers.failure(accepter)).isInstanceOf(SJIOException.class);
                } else {
                    assertThat(accepter.get(20, TimeUnit.SECONDS)).isNull();
                }
            }
        }
        assertThat(heard).singleElement().asString()
                .startsWith(Thread.currentThread().getName() + ": ")
                .contains("closed before its type was complete", "![");
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void aPeerClosingMidSessionFailsTheBlockedReceive(Threads threads) throws Exception {
        try (SJServerSocket server = SJServerSocket.create(WaitServer.class, 0)) {
            CountDownLatch accepted = new CountDownLatch(1);
            FutureTask<Object> accepter = Peers.start(threads, () -> {
                SJSocket s = server.accept();
                accepted.countDown();
                try {
                    return s.receive(); // the type says the server sends: the monitor stops this...
                } catch (SJProtocolViolationException expected) {
                    s.close(); // ...so it abandons the session instead
                    return null;
                }
            });
            FutureTask<Integer> requester = Peers.start(threads, () -> {
                try (SJSocket s = SJService.create(WaitClient.class, "localhost", server.port()).request()) {
                    return s.receiveInt();
                }
            });
            accepted.await();
            Throwable failure = Peers.failure(requester);
            assertThat(failure).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("closed the session before completing it")
                    .hasMessageContaining("!<int>");
            assertThat(accepter.get(20, java.util.concurrent.TimeUnit.SECONDS))
                    .as("closing an incomplete session abandons it without throwing").isNull();
        }
    }

    @Test
    void aVanishedPeerConnectionFailsTheBlockedReceiveInBoundedTime() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(WaitServer.class, 0)) {
            CountDownLatch requested = new CountDownLatch(1);
            FutureTask<Integer> requester = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = SJService.create(WaitClient.class, "localhost", server.port()).request()) {
                    requested.countDown();
                    return s.receiveInt();
                }
            });
            SJSocket accepted = server.accept();
            requested.await();
            // Crash-like: the connection goes away without a failure notice.
            ((org.sessionj.runtime.internal.session.SessionSocket) accepted).state();
            org.sessionj.runtime.spi.Connection connection = connectionOf(accepted);
            connection.close();
            assertThat(Peers.failure(requester)).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("connection to the peer was lost")
                    .hasMessageContaining("?(int)");
        }
    }

    private static org.sessionj.runtime.spi.Connection connectionOf(SJSocket socket) throws Exception {
        var method = org.sessionj.runtime.internal.session.SessionSocket.class.getDeclaredMethod("connection");
        method.setAccessible(true);
        return (org.sessionj.runtime.spi.Connection) method.invoke(socket);
    }

    @Test
    void anInputTimeoutFailsTheSessionAndTellsThePeer() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            CountDownLatch timedOut = new CountDownLatch(1);
            FutureTask<Integer> requester = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = SJService.create(IntClient.class, "localhost", server.port()).request()) {
                    timedOut.await();
                    s.send(1);
                    return s.receiveInt();
                }
            });
            try (SJSocket s = server.accept()) {
                assertThatThrownBy(() -> s.receive(Duration.ofMillis(30)))
                        .isInstanceOf(SJTimeoutException.class).hasMessageContaining("?(int)");
                assertThatThrownBy(s::receiveInt).isInstanceOf(SJIOException.class).hasMessageContaining("failed");
                timedOut.countDown();
            }
            assertThat(Peers.failure(requester)).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("the peer failed the session").hasMessageContaining("no input within");
        }
    }

    @Test
    void monitorViolationsAreCaughtBeforeAnythingReachesTheWire() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            FutureTask<Integer> accepter = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept()) {
                    int got = s.receiveInt();
                    s.send(got + 1);
                    return got;
                }
            });
            try (SJSocket s = SJService.create(IntClient.class, "localhost", server.port()).request()) {
                assertThatThrownBy(() -> s.send("not an int")).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("expects !<int>").hasMessageContaining("!<java.lang.String>");
                assertThatThrownBy(() -> s.send(1L)).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("!<long>");
                assertThatThrownBy(s::receiveInt).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("expects !<int>").hasMessageContaining("?(int)");
                assertThatThrownBy(() -> s.outbranch("X")).isInstanceOf(SJProtocolViolationException.class);
                assertThatThrownBy(() -> s.outwhile(true)).isInstanceOf(SJProtocolViolationException.class);
                assertThatThrownBy(s::inwhile).isInstanceOf(SJProtocolViolationException.class);
                // None of that reached the peer: the session goes on as the type says.
                s.send(41);
                assertThat(s.receiveInt()).isEqualTo(42);
                assertThatThrownBy(() -> s.send(1)).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("end");
            }
            assertThat(Peers.join(accepter)).isEqualTo(41);
        }
    }

    @Test
    void multicastInwhileFailsWhenThePeersDisagree() throws Exception {
        try (SJServerSocket feeds = SJServerSocket.create(StreamServer.class, 0)) {
            FutureTask<Object> stopper = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = SJService.create(StreamClient.class, "localhost", feeds.port()).request()) {
                    s.outwhile(false);
                    return s.receive();
                }
            });
            FutureTask<Object> continuer = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = SJService.create(StreamClient.class, "localhost", feeds.port()).request()) {
                    s.outwhile(true);
                    s.send(1);
                    s.outwhile(false);
                    return s.receive();
                }
            });
            SJSocket a = feeds.accept();
            SJSocket b = feeds.accept();
            assertThatThrownBy(() -> SJ.inwhile(a, b)).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("disagree");
            a.close();
            b.close();
            assertThat(Peers.failure(stopper)).isInstanceOf(SJIOException.class);
            assertThat(Peers.failure(continuer)).isInstanceOf(SJIOException.class);
        }
    }

    @Test
    void aFailedSessionFailsTheOthersInItsScope() throws Exception {
        try (SJServerSocket feeds = SJServerSocket.create(FeedServer.class, 0);
                SJServerSocket waits = SJServerSocket.create(WaitServer.class, 0)) {
            // The scope's two peers: one vanishes, the other must learn that the scope failed.
            FutureTask<Boolean> bystanderPeer = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = feeds.accept()) {
                    return s.outwhile(false);
                }
            });
            CountDownLatch vanish = new CountDownLatch(1);
            FutureTask<Object> vanishingPeer = Peers.start(Threads.VIRTUAL, () -> {
                SJSocket s = waits.accept();
                vanish.await();
                connectionOf(s).close();
                return null;
            });
            SJSocket bystander;
            try (SJScope scope = SJ.scope();
                    SJSocket feed = scope.add(SJService.create(FeedClient.class, "localhost", feeds.port()).request());
                    SJSocket wait = scope.add(SJService.create(WaitClient.class, "localhost", waits.port()).request())) {
                bystander = feed;
                // The bystander's peer completes its type first: its decision is waiting here.
                assertThat(Peers.join(bystanderPeer)).isFalse();
                vanish.countDown();
                assertThatThrownBy(wait::receiveInt).isInstanceOf(SJIOException.class);
                assertThatThrownBy(feed::inwhile).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("another session in its scope failed");
            }
            Peers.join(vanishingPeer);
            assertThat(bystander.isInputReady()).as("a failed session reports input at once").isTrue();
        }
    }
}
