package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJ;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.Peers.Threads;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;

/** SJ.join: the next message of every session, in whatever order they come, returned in socket order. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JoinTest {

    /** Workers that answer n * 10 once released, in the order the latches are counted down. */
    @Test
    void gathersOneMessageFromEverySessionWhateverOrderTheyArriveIn() throws Exception {
        int n = 4;
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            List<CountDownLatch> release = new ArrayList<>();
            List<FutureTask<Void>> workers = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                CountDownLatch go = new CountDownLatch(1);
                release.add(go);
                workers.add(Peers.start(Threads.VIRTUAL, () -> {
                    try (SJSocket s = server.accept(Duration.ofSeconds(10))) {
                        int x = s.receiveInt();
                        go.await();
                        s.send(x * 10);
                    }
                    return null;
                }));
            }
            SJSocket[] sockets = new SJSocket[n];
            for (int k = 0; k < n; k++) {
                sockets[k] = SJService.create(IntClient.class, "localhost", server.port()).request();
                sockets[k].send(k + 1);
            }
            // The last worker answers first, the first last: the join does not wait in socket order.
            Thread releaser = Thread.ofVirtual().start(() -> {
                for (int k = n - 1; k >= 0; k--) {
                    release.get(k).countDown();
                }
            });
            List<Integer> values = SJ.join(sockets);
            assertThat(values).containsExactly(10, 20, 30, 40);
            releaser.join();
            for (SJSocket s : sockets) {
                s.close();
            }
            for (FutureTask<Void> worker : workers) {
                Peers.join(worker);
            }
        }
    }

    @Test
    void aFailedSessionFailsTheJoinAndASelectorKeepsItsWakeUps() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0); SJSelector selector = SJSelector.open()) {
            FutureTask<Void> good = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept(Duration.ofSeconds(10))) {
                    s.send(s.receiveInt() + 1);
                }
                return null;
            });
            SJSocket a = SJService.create(IntClient.class, "localhost", server.port()).request();
            a.send(1);
            Peers.join(good);
            FutureTask<Void> bad = Peers.start(Threads.VIRTUAL, () -> {
                SJSocket s = server.accept(Duration.ofSeconds(10));
                s.receiveInt();
                // Closed before its answer: the session fails (for the peer too), without an exception here.
                s.close();
                return null;
            });
            SJSocket b = SJService.create(IntClient.class, "localhost", server.port()).request();
            selector.register(b);
            b.send(2);
            Peers.join(bad);
            assertThatThrownBy(() -> SJ.join(a, b)).isInstanceOf(SJIOException.class);
            // b's selector registration still works after the join put its listener back.
            assertThat(selector.select(Duration.ofSeconds(5))).isSameAs(b);
            a.close();
            b.close();
        }
    }

    /**
     * Once one session is left the join receives its message as a receive does (the reader sleeps in its
     * transport, woken there directly, not through readiness listeners), so the receive timeout applies to it.
     */
    @Test
    void theLastOutstandingSessionIsReceivedAsAReceiveIsWithItsReceiveTimeout() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm")
                .defaultTimeout(Duration.ofSeconds(1)).build()); // the answering peer has this long: loaded machines
        try (SJServerSocket answers = runtime.serverSocket(IntServer.class, 0);
             SJServerSocket quiet = runtime.serverSocket(IntServer.class, 0)) {
            CountDownLatch done = new CountDownLatch(1);
            FutureTask<Void> answering = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = answers.accept(Duration.ofSeconds(10))) {
                    s.send(s.receiveInt() * 10);
                }
                return null;
            });
            FutureTask<Void> silent = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = quiet.accept(Duration.ofSeconds(10))) {
                    s.receiveInt();
                    done.await(); // answers nothing until the join timed out
                } catch (RuntimeException expected) {
                    // the joining side failed the session; closing says so
                }
                return null;
            });
            SJSocket a = runtime.service(IntClient.class, "localhost", answers.port()).request();
            a.send(4);
            SJSocket b = runtime.service(IntClient.class, "localhost", quiet.port()).request();
            b.send(5);
            assertThatThrownBy(() -> SJ.join(a, b)).isInstanceOf(SJTimeoutException.class)
                    .hasMessageContaining("no input within PT1S for ?(int)")
                    .hasMessageContaining("(sessionj.receiveTimeout)");
            a.close(); // answered and received: complete
            b.close(); // failed by the timeout: closes quietly
            done.countDown();
            Peers.join(answering);
            Peers.join(silent);
        }
    }

    @Test
    void oneSessionTwiceIsRefused() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            FutureTask<Void> peer = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept(Duration.ofSeconds(10))) {
                    s.send(s.receiveInt());
                }
                return null;
            });
            try (SJSocket a = SJService.create(IntClient.class, "localhost", server.port()).request()) {
                a.send(7);
                assertThatThrownBy(() -> SJ.join(a, a)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("twice");
                assertThat(SJ.<Integer>join(a)).containsExactly(7);
            }
            Peers.join(peer);
        }
    }
}
