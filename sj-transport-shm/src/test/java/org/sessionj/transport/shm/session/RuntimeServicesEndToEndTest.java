package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.Peers.Threads;
import org.sessionj.transport.shm.session.TestProtocols.ArrayClient;
import org.sessionj.transport.shm.session.TestProtocols.ArrayServer;
import org.sessionj.transport.shm.session.TestProtocols.Box;
import org.sessionj.transport.shm.session.TestProtocols.BoxClient;
import org.sessionj.transport.shm.session.TestProtocols.BoxServer;
import org.sessionj.transport.shm.session.TestProtocols.PointClient;
import org.sessionj.transport.shm.session.TestProtocols.PointServer;
import org.sessionj.transport.shm.session.TestProtocols.PrimitivesClient;
import org.sessionj.transport.shm.session.TestProtocols.PrimitivesServer;
import org.sessionj.transport.shm.session.TestProtocols.StreamClient;
import org.sessionj.transport.shm.session.TestProtocols.StreamServer;

/** pass vs send, the selector, type-directed batching and the monitor switch. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RuntimeServicesEndToEndTest {

    @Test
    void passHandsOverTheReferenceWhileSendCopiesEvenInOneJvm() throws Exception {
        AtomicReference<Object> received = new AtomicReference<>();
        try (SJServerSocket server = SJServerSocket.create(ArrayServer.class, 0)) {
            FutureTask<Object> accepter = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept()) {
                    int[] got = s.receive();
                    received.set(got);
                    s.pass(got);
                    return null;
                }
            });
            int[] mine = {1, 2, 3};
            try (SJSocket s = SJService.create(ArrayClient.class, "localhost", server.port()).request()) {
                s.send(mine);
                mine[0] = 99; // the sender keeps mutating its array after send
                int[] back = s.receive();
                assertThat(received.get()).isNotSameAs(mine);
                assertThat((int[]) received.get()).containsExactly(1, 2, 3);
                assertThat(back).as("pass hands the receiver's reference back unchanged").isSameAs(received.get());
            }
            Peers.join(accepter);
        }
    }

    @Test
    void sendCopiesMutableObjectsThroughTheCodecAndPassDoesNot() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(BoxServer.class, 0)) {
            FutureTask<Box> accepter = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept()) {
                    Box got = s.receive();
                    s.pass(got);
                    return got;
                }
            });
            Box box = new Box();
            box.values = new int[] {5};
            box.name = "box";
            try (SJSocket s = SJService.create(BoxClient.class, "localhost", server.port()).request()) {
                s.send(box);
                Box back = s.receive();
                assertThat(back).isNotSameAs(box);
                assertThat(back.values).containsExactly(5);
                assertThat(back.name).isEqualTo("box");
                assertThat(back).isSameAs(Peers.join(accepter));
            }
        }
    }

    @Test
    void theSelectorServesReadySessionsRoundRobin() throws Exception {
        int sessions = 3;
        int items = 100;
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0); SJSelector selector = SJSelector.open()) {
            List<FutureTask<Integer>> clients = new ArrayList<>();
            for (int k = 0; k < sessions; k++) {
                clients.add(Peers.start(Threads.VIRTUAL, () -> {
                    try (SJSocket s = SJService.create(StreamClient.class, "localhost", server.port()).request()) {
                        int i = 0;
                        while (s.outwhile(i < items)) {
                            s.send(i++);
                        }
                        return s.receiveInt();
                    }
                }));
            }
            List<SJSocket> accepted = new ArrayList<>();
            for (int k = 0; k < sessions; k++) {
                SJSocket s = server.accept();
                accepted.add(s);
                selector.register(s);
            }
            // Every client's whole stream is one batch: wait until all are ready at once.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!accepted.stream().allMatch(SJSocket::isInputReady)) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.onSpinWait();
            }
            List<SJSocket> order = new ArrayList<>();
            int[] sums = new int[sessions];
            int open = sessions;
            while (open > 0) {
                SJSocket s = selector.select();
                order.add(s);
                int index = accepted.indexOf(s);
                if (s.inwhile()) {
                    sums[index] += s.receiveInt();
                } else {
                    s.send(sums[index]);
                    selector.deregister(s);
                    s.close();
                    open--;
                }
            }
            for (int window = 0; window + sessions <= sessions * items; window += sessions) {
                Set<SJSocket> served = new HashSet<>(order.subList(window, window + sessions));
                assertThat(served).as("selections %d..%d", window, window + sessions - 1).hasSize(sessions);
            }
            for (FutureTask<Integer> client : clients) {
                assertThat(Peers.join(client)).isEqualTo(items * (items - 1) / 2);
            }
        }
    }

    @Test
    void selectTimesOutWhenNoSessionIsReady() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0); SJSelector selector = SJSelector.open()) {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            FutureTask<Integer> client = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = SJService.create(StreamClient.class, "localhost", server.port()).request()) {
                    go.await(); // idle until the selector has timed out once
                    s.outwhile(false);
                    return s.receiveInt();
                }
            });
            try (SJSocket s = server.accept()) {
                selector.register(s);
                assertThatThrownBy(() -> selector.select(java.time.Duration.ofMillis(20)))
                        .isInstanceOf(SJTimeoutException.class);
                go.countDown();
                assertThat(selector.select(java.time.Duration.ofSeconds(10))).isSameAs(s);
                assertThat(s.inwhile()).isFalse();
                s.send(7);
            }
            assertThat(Peers.join(client)).isEqualTo(7);
        }
    }

    private static SJRuntime counting(int batchBytes) {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("counting").batchBytes(batchBytes).build());
    }

    private static int framesOfLastRequester() {
        var ends = CountingTransport.REQUESTER_ENDS;
        return ends.get(ends.size() - 1).frames.get();
    }

    @Test
    void outputsAreBatchedUntilTheTypeTurnsToInput() throws Exception {
        SJRuntime runtime = counting(SJRuntimeConfig.DEFAULT_BATCH_BYTES);
        try (SJServerSocket server = runtime.serverSocket(PrimitivesServer.class, 0)) {
            FutureTask<Object> accepter = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept()) {
                    for (int i = 0; i < 8; i++) {
                        s.receive();
                    }
                    s.send(1);
                    s.send(2L);
                    s.send(3.0);
                    s.send(4f);
                    s.send(true);
                    s.send((byte) 5);
                    s.send((short) 6);
                    s.send('7');
                    return null;
                }
            });
            try (SJSocket s = runtime.service(PrimitivesClient.class, "localhost", server.port()).request()) {
                s.send(1);
                s.send(2L);
                s.send(3.0);
                s.send(4f);
                s.send(false);
                s.send((byte) 5);
                s.send((short) 6);
                assertThat(framesOfLastRequester()).as("only the session request so far").isEqualTo(1);
                s.send('7');
                assertThat(framesOfLastRequester()).as("eight outputs, one frame, flushed at ?(int)").isEqualTo(2);
                for (int i = 0; i < 8; i++) {
                    s.receive();
                }
            }
            assertThat(framesOfLastRequester()).isEqualTo(2);
            Peers.join(accepter);
        }
    }

    @Test
    void aLoopOfOutputsIsOneFrameUnlessTheSizeBoundIsPassed() throws Exception {
        for (int bound : new int[] {SJRuntimeConfig.DEFAULT_BATCH_BYTES, 64}) {
            SJRuntime runtime = counting(bound);
            try (SJServerSocket server = runtime.serverSocket(StreamServer.class, 0)) {
                FutureTask<Integer> accepter = Peers.start(Threads.VIRTUAL, () -> {
                    try (SJSocket s = server.accept()) {
                        int sum = 0;
                        while (s.inwhile()) {
                            sum += s.receiveInt();
                        }
                        s.send(sum);
                        return sum;
                    }
                });
                try (SJSocket s = runtime.service(StreamClient.class, "localhost", server.port()).request()) {
                    int i = 0;
                    while (s.outwhile(i < 1000)) {
                        s.send(i++);
                    }
                    assertThat(s.receiveInt()).isEqualTo(999 * 1000 / 2);
                }
                int frames = framesOfLastRequester() - 1;
                if (bound == 64) {
                    // 7 bytes per iteration, 7002 in all, flushed as soon as 64 are buffered.
                    assertThat(frames).isBetween(100, 112);
                } else {
                    assertThat(frames).isEqualTo(1);
                }
                assertThat(Peers.join(accepter)).isEqualTo(999 * 1000 / 2);
            }
        }
    }

    @Test
    void withTheMonitorOffTypedEncodersStillRefuseAWrongValueAndSendNothing() throws Exception {
        SJRuntime unmonitored = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").monitor(false).build());
        try (SJServerSocket server = SJServerSocket.create(PointServer.class, 0)) {
            FutureTask<Object> accepter = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept()) {
                    TestProtocols.Point p = s.receive();
                    s.send(new TestProtocols.Point(p.y(), p.x()));
                    return p;
                }
            });
            try (SJSocket s = unmonitored.service(PointClient.class, "localhost", server.port()).request()) {
                assertThatThrownBy(() -> s.send(List.of("not", "a", "point")))
                        .isInstanceOf(org.sessionj.api.SJProtocolViolationException.class)
                        .hasMessageContaining("!<java.util.ImmutableCollections$ListN>");
                s.send(new TestProtocols.Point(1, 2));
                assertThat((Object) s.receive()).isEqualTo(new TestProtocols.Point(2, 1));
            }
            assertThat(Peers.join(accepter)).isEqualTo(new TestProtocols.Point(1, 2));
        }
    }

    @Test
    void theConfiguredDefaultTimeoutAppliesToEveryInputWithoutItsOwn() throws Exception {
        SJRuntime impatient = SJRuntime.create(SJRuntimeConfig.builder().transports("shm")
                .defaultTimeout(java.time.Duration.ofMillis(30)).build());
        try (SJServerSocket server = impatient.serverSocket(TestProtocols.WaitServer.class, 0)) {
            FutureTask<Integer> requester = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = impatient.service(TestProtocols.WaitClient.class, "localhost", server.port()).request()) {
                    return s.receiveInt();
                }
            });
            try (SJSocket idle = server.accept()) {
                assertThat(Peers.failure(requester)).isInstanceOf(SJTimeoutException.class)
                        .hasMessageContaining("?(int)");
                assertThatThrownBy(() -> idle.send(1)).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("the peer failed the session");
            }
        }
    }

    @Test
    void acceptTimesOut() {
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0)) {
            assertThatThrownBy(() -> server.accept(java.time.Duration.ofMillis(20))).isInstanceOf(SJTimeoutException.class)
                    .hasMessageContaining("port " + server.port());
        }
    }
}
