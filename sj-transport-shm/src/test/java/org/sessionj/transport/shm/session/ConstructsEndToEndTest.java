package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sessionj.api.SJ;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.transport.shm.session.Peers.Threads;
import org.sessionj.transport.shm.session.TestProtocols.CalculatorClient;
import org.sessionj.transport.shm.session.TestProtocols.CalculatorServer;
import org.sessionj.transport.shm.session.TestProtocols.Choice;
import org.sessionj.transport.shm.session.TestProtocols.FeedClient;
import org.sessionj.transport.shm.session.TestProtocols.FeedServer;
import org.sessionj.transport.shm.session.TestProtocols.Point;
import org.sessionj.transport.shm.session.TestProtocols.PrimitivesClient;
import org.sessionj.transport.shm.session.TestProtocols.PrimitivesServer;
import org.sessionj.transport.shm.session.TestProtocols.StreamClient;
import org.sessionj.transport.shm.session.TestProtocols.StreamServer;
import org.sessionj.transport.shm.session.TestProtocols.ValuesClient;
import org.sessionj.transport.shm.session.TestProtocols.ValuesServer;

/** Every session construct end to end between threads over the in-JVM transport. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConstructsEndToEndTest {

    @ParameterizedTest
    @EnumSource(Threads.class)
    void primitivesTravelBothWaysWithoutBoxing(Threads threads) throws Exception {
        try (SJServerSocket server = SJServerSocket.create(PrimitivesServer.class, 0)) {
            FutureTask<String> accepter = Peers.start(threads, () -> {
                try (SJSocket s = server.accept()) {
                    String got = s.receiveInt() + " " + s.receiveLong() + " " + s.receiveDouble() + " " + s.receiveFloat()
                            + " " + s.receiveBoolean() + " " + s.receiveByte() + " " + s.receiveShort() + " "
                            + s.receiveChar();
                    s.send(-7);
                    s.send(Long.MIN_VALUE);
                    s.send(Math.PI);
                    s.send(1.5f);
                    s.send(false);
                    s.send((byte) -128);
                    s.send((short) 32767);
                    s.send('\u20ac');
                    return got;
                }
            });
            FutureTask<String> requester = Peers.start(threads, () -> {
                try (SJSocket s = SJService.create(PrimitivesClient.class, "localhost", server.port()).request()) {
                    s.send(42);
                    s.send(1L << 40);
                    s.send(2.5);
                    s.send(0.25f);
                    s.send(true);
                    s.send((byte) 7);
                    s.send((short) -3);
                    s.send('x');
                    return s.receiveInt() + " " + s.receiveLong() + " " + s.receiveDouble() + " " + s.receiveFloat() + " "
                            + s.receiveBoolean() + " " + s.receiveByte() + " " + s.receiveShort() + " " + s.receiveChar();
                }
            });
            assertThat(Peers.join(accepter)).isEqualTo("42 1099511627776 2.5 0.25 true 7 -3 x");
            assertThat(Peers.join(requester)).isEqualTo("-7 " + Long.MIN_VALUE + " " + Math.PI + " 1.5 false -128 32767 \u20ac");
        }
    }

    @Test
    void stringsArraysRecordsAndGenericsTravelAsTheirDeclaredTypes() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(ValuesServer.class, 0)) {
            FutureTask<List<Object>> accepter = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept()) {
                    List<Object> got = new ArrayList<>();
                    for (int i = 0; i < 14; i++) {
                        got.add(s.receive());
                    }
                    Point p = (Point) got.get(10);
                    s.send(new Point(p.y(), p.x()));
                    return got;
                }
            });
            FutureTask<Point> requester = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = SJService.create(ValuesClient.class, "localhost", server.port()).request()) {
                    s.send("héllo, wörld");
                    s.send((Object) null);
                    s.send(new int[] {1, -2, 3});
                    s.send(new double[] {0.5, -1e300});
                    s.send(new byte[] {9, 8});
                    s.send(new boolean[] {true, false});
                    s.send(new long[] {Long.MAX_VALUE});
                    s.send(new char[] {'a', 'z'});
                    s.send(new short[] {-1});
                    s.send(new float[] {3.5f});
                    s.send(new Point(3, 4));
                    s.send(List.of("a", "b"));
                    s.send(17);
                    s.send(new double[][] {{1, 2}, {3}});
                    return s.receive();
                }
            });
            List<Object> got = Peers.join(accepter);
            assertThat(got.get(0)).isEqualTo("héllo, wörld");
            assertThat(got.get(1)).isNull();
            assertThat((int[]) got.get(2)).containsExactly(1, -2, 3);
            assertThat((double[]) got.get(3)).containsExactly(0.5, -1e300);
            assertThat((byte[]) got.get(4)).containsExactly(9, 8);
            assertThat((boolean[]) got.get(5)).containsExactly(true, false);
            assertThat((long[]) got.get(6)).containsExactly(Long.MAX_VALUE);
            assertThat((char[]) got.get(7)).containsExactly('a', 'z');
            assertThat((short[]) got.get(8)).containsExactly((short) -1);
            assertThat((float[]) got.get(9)).containsExactly(3.5f);
            assertThat(got.get(10)).isEqualTo(new Point(3, 4));
            assertThat(got.get(11)).isEqualTo(List.of("a", "b"));
            assertThat(got.get(12)).isEqualTo(17);
            assertThat((double[][]) got.get(13)).isDeepEqualTo(new double[][] {{1, 2}, {3}});
            assertThat(Peers.join(requester)).isEqualTo(new Point(4, 3));
        }
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void labelsAndRecursionDriveAConversation(Threads threads) throws Exception {
        try (SJServerSocket server = SJServerSocket.create(CalculatorServer.class, 0)) {
            FutureTask<Integer> accepter = Peers.start(threads, () -> {
                int served = 0;
                try (SJSocket s = server.accept()) {
                    while (true) {
                        Choice choice = s.inbranch(Choice.class);
                        if (choice == Choice.QUIT) {
                            return served;
                        }
                        s.send(s.receiveInt() + s.receiveInt());
                        served++;
                    }
                }
            });
            FutureTask<Integer> requester = Peers.start(threads, () -> {
                int total = 0;
                try (SJSocket s = SJService.create(CalculatorClient.class, "localhost", server.port()).request()) {
                    for (int i = 0; i < 100; i++) {
                        s.outbranch(Choice.ADD);
                        s.send(i);
                        s.send(1);
                        total += s.receiveInt();
                    }
                    s.outbranch("QUIT");
                }
                return total;
            });
            assertThat(Peers.join(requester)).isEqualTo(100 * 99 / 2 + 100);
            assertThat(Peers.join(accepter)).isEqualTo(100);
        }
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void outwhileAndInwhileIterateAsTheSenderDecides(Threads threads) throws Exception {
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0)) {
            FutureTask<Integer> accepter = Peers.start(threads, () -> {
                try (SJSocket s = server.accept()) {
                    int sum = 0;
                    while (s.inwhile()) {
                        sum += s.receiveInt();
                    }
                    s.send(sum);
                    return sum;
                }
            });
            FutureTask<Integer> requester = Peers.start(threads, () -> {
                try (SJSocket s = SJService.create(StreamClient.class, "localhost", server.port()).request()) {
                    int i = 0;
                    while (s.outwhile(i < 1000)) {
                        s.send(i++);
                    }
                    return s.receiveInt();
                }
            });
            assertThat(Peers.join(requester)).isEqualTo(999 * 1000 / 2);
            assertThat(Peers.join(accepter)).isEqualTo(999 * 1000 / 2);
        }
    }

    @Test
    void aLoopOfZeroIterationsIsJustTheFlag() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(StreamServer.class, 0)) {
            FutureTask<Integer> accepter = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept()) {
                    int n = 0;
                    while (s.inwhile()) {
                        s.receiveInt();
                        n++;
                    }
                    s.send(n);
                    return n;
                }
            });
            try (SJSocket s = SJService.create(StreamClient.class, "localhost", server.port()).request()) {
                while (s.outwhile(false)) {
                    s.send(1);
                }
                assertThat(s.receiveInt()).isZero();
            }
            assertThat(Peers.join(accepter)).isZero();
        }
    }

    @Test
    void multicastOutwhileDrivesSeveralPeersAndChainingForwardsTheDecision() throws Exception {
        // A ring of decisions: the master multicasts to two workers; worker 1 forwards its
        // iteration decision to a third party by chaining (s_r.outwhile(s_l.inwhile())).
        try (SJServerSocket workers = SJServerSocket.create(FeedServer.class, 0);
                SJServerSocket sink = SJServerSocket.create(StreamServer.class, 0)) {
            FutureTask<Integer> sinkPeer = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = sink.accept()) {
                    int sum = 0;
                    while (s.inwhile()) {
                        sum += s.receiveInt();
                    }
                    s.send(sum);
                    return sum;
                }
            });
            FutureTask<Integer> chainingWorker = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket left = SJService.create(FeedClient.class, "localhost", workers.port()).request();
                        SJSocket right = SJService.create(StreamClient.class, "localhost", sink.port()).request()) {
                    while (right.outwhile(left.inwhile())) {
                        right.send(left.receiveInt() * 10);
                    }
                    return right.receiveInt();
                }
            });
            FutureTask<Integer> plainWorker = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = SJService.create(FeedClient.class, "localhost", workers.port()).request()) {
                    int sum = 0;
                    while (s.inwhile()) {
                        sum += s.receiveInt();
                    }
                    return sum;
                }
            });
            try (SJSocket w1 = workers.accept(); SJSocket w2 = workers.accept()) {
                int i = 0;
                while (SJ.outwhile(i < 5, w1, w2)) {
                    SJ.send(i++, w1, w2);
                }
            }
            assertThat(Peers.join(plainWorker)).isEqualTo(10);
            assertThat(Peers.join(chainingWorker)).isEqualTo(100);
            assertThat(Peers.join(sinkPeer)).isEqualTo(100);
        }
    }

    @Test
    void multicastInwhileReturnsTheAgreedDecision() throws Exception {
        try (SJServerSocket feeds = SJServerSocket.create(StreamServer.class, 0)) {
            List<FutureTask<Integer>> senders = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                senders.add(Peers.start(Threads.VIRTUAL, () -> {
                    try (SJSocket s = SJService.create(StreamClient.class, "localhost", feeds.port()).request()) {
                        int i = 0;
                        while (s.outwhile(i < 3)) {
                            s.send(i++);
                        }
                        return s.receiveInt();
                    }
                }));
            }
            int rounds = 0;
            try (SJSocket a = feeds.accept(); SJSocket b = feeds.accept()) {
                while (SJ.inwhile(a, b)) {
                    a.receiveInt();
                    b.receiveInt();
                    rounds++;
                }
                a.send(rounds);
                b.send(rounds);
            }
            assertThat(rounds).isEqualTo(3);
            for (FutureTask<Integer> sender : senders) {
                assertThat(Peers.join(sender)).isEqualTo(3);
            }
        }
    }
}
