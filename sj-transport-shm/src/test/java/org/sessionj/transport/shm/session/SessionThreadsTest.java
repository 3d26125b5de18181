package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJ;
import org.sessionj.api.SJException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJThread;
import org.sessionj.transport.shm.session.Peers.Threads;
import org.sessionj.transport.shm.session.TestProtocols.StreamClient;
import org.sessionj.transport.shm.session.TestProtocols.StreamServer;

/** SJ.spawn: a virtual thread per session that owns it, completes it and closes it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SessionThreadsTest {

    /** StreamServer's body: sum the stream, send the sum back. */
    private static void sum(SJSocket s) {
        int total = 0;
        while (s.inwhile()) {
            total += s.receiveInt();
        }
        s.send(total);
    }

    private static int client(int port, int count) {
        try (SJSocket s = SJService.create(StreamClient.class, "localhost", port).request()) {
            int i = 0;
            while (s.outwhile(i < count)) {
                s.send(i++);
            }
            return s.receiveInt();
        }
    }

    @Test
    void anAcceptLoopServesEverySessionOnItsOwnVirtualThread() throws Exception {
        int sessions = 20;
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0)) {
            List<FutureTask<Integer>> clients = new ArrayList<>();
            for (int k = 0; k < sessions; k++) {
                int count = k;
                clients.add(Peers.start(Threads.VIRTUAL, () -> client(server.port(), count)));
            }
            List<SJThread> threads = new ArrayList<>();
            AtomicReference<Thread> bodyThread = new AtomicReference<>();
            for (int k = 0; k < sessions; k++) {
                SJSocket s = server.accept(Duration.ofSeconds(10));
                threads.add(SJ.spawn(s, c -> {
                    bodyThread.set(Thread.currentThread());
                    sum(c);
                }));
            }
            for (int k = 0; k < sessions; k++) {
                assertThat(Peers.join(clients.get(k))).isEqualTo(k * (k - 1) / 2);
            }
            for (SJThread thread : threads) {
                thread.join();
                assertThat(thread.isAlive()).isFalse();
            }
            assertThat(bodyThread.get().isVirtual()).isTrue();
            assertThat(bodyThread.get()).isNotSameAs(Thread.currentThread());
        }
    }

    @Test
    void aBodyThatFailsFailsItsSessionForThePeerAndJoinRaisesTheFailure() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0)) {
            FutureTask<Integer> peer = Peers.start(Threads.VIRTUAL, () -> client(server.port(), 3));
            SJSocket s = server.accept(Duration.ofSeconds(10));
            IllegalStateException boom = new IllegalStateException("boom");
            SJThread thread = SJ.spawn(s, c -> {
                c.inwhile();
                throw boom;
            });
            assertThatThrownBy(() -> Peers.join(peer)).satisfies(e -> assertThat(
                    e instanceof SJIOException || e.getCause() instanceof SJIOException).as(e.toString()).isTrue());
            assertThatThrownBy(thread::join).isInstanceOf(SJException.class).hasCause(boom)
                    .hasMessageContaining("boom");
            // join with a timeout raises the failure too, and the thread has ended.
            assertThatThrownBy(() -> thread.join(Duration.ofSeconds(1))).isInstanceOf(SJException.class).hasCause(boom);
            assertThat(thread.isAlive()).isFalse();
        }
    }

    @Test
    void outputTheSpawnerBatchedIsSentBeforeTheBodyTakesOver() throws Exception {
        // The requester sends its first value on the spawner's thread (batched), then hands the session
        // over: the accepter sees every value, so nothing batched was lost or sent out of order.
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0)) {
            FutureTask<Integer> accepter = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept(Duration.ofSeconds(10))) {
                    int total = 0;
                    while (s.inwhile()) {
                        total += s.receiveInt();
                    }
                    s.send(total);
                    return total;
                }
            });
            SJSocket s = SJService.create(StreamClient.class, "localhost", server.port()).request();
            s.outwhile(true);
            s.send(40);
            AtomicReference<Integer> back = new AtomicReference<>();
            SJThread thread = SJ.spawn(s, c -> {
                c.outwhile(true);
                c.send(2);
                c.outwhile(false);
                back.set(c.receiveInt());
            });
            thread.join();
            assertThat(back.get()).isEqualTo(42);
            assertThat(Peers.join(accepter)).isEqualTo(42);
        }
    }

    @Test
    void aBodyOwningTwoSessionsRelaysBetweenThem() throws Exception {
        try (SJServerSocket left = SJServerSocket.create(StreamServer.class, 0);
             SJServerSocket right = SJServerSocket.create(StreamServer.class, 0)) {
            FutureTask<Integer> a = Peers.start(Threads.VIRTUAL, () -> client(left.port(), 5));
            FutureTask<Integer> sink = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = right.accept(Duration.ofSeconds(10))) {
                    int n = 0;
                    while (s.inwhile()) {
                        n += s.receiveInt();
                    }
                    s.send(-n);
                    return n;
                }
            });
            SJSocket in = left.accept(Duration.ofSeconds(10));
            SJSocket out = SJService.create(StreamClient.class, "localhost", right.port()).request();
            SJThread relay = SJ.spawn(in, out, (i, o) -> {
                int total = 0;
                while (o.outwhile(i.inwhile())) {
                    int v = i.receiveInt();
                    total += v;
                    o.send(v);
                }
                i.send(o.receiveInt() + 2 * total);
            });
            relay.join();
            assertThat(Peers.join(sink)).isEqualTo(10);
            assertThat(Peers.join(a)).isEqualTo(10);
        }
    }

    @Test
    void oneSessionTwiceOrNoBodyIsRefusedBeforeAnyThreadStarts() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0)) {
            CountDownLatch started = new CountDownLatch(1);
            FutureTask<Integer> peer = Peers.start(Threads.VIRTUAL, () -> client(server.port(), 1));
            SJSocket s = server.accept(Duration.ofSeconds(10));
            assertThatThrownBy(() -> SJ.spawn(s, s, (a, b) -> started.countDown()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
            assertThatThrownBy(() -> SJ.spawn(s, null)).isInstanceOf(NullPointerException.class);
            assertThat(started.getCount()).isOne();
            SJ.spawn(s, SessionThreadsTest::sum).join();
            assertThat(Peers.join(peer)).isZero();
        }
    }
}
