package org.sessionj.transport.shm.delegation;

import org.sessionj.runtime.testing.delegation.StressScenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.session.SessionSocket;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.AliceClient;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.BranchAlice;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.BulkAlice;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.BulkGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.BulkTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.BranchGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.BranchTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.CarolServesAlice;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.CarolServesBranch;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.CarolServesBulk;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.Increment;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.IncrementServer;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.LoopGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.LoopTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.MidLoopGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.MidLoopTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.Op;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.Other;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.ServiceGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.ServiceTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.StreamAlice;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.StreamGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.StreamTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.CarolServesStream;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.CarolServesPassing;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.PassingAlice;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.PassingGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.PassingTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.WrongLoopGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.WrongLoopTaker;

/** Service passing and session delegation between threads of one JVM over the in-JVM transport. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DelegationInJvmTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static SJRuntime runtime() {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("shm").initiationTimeout(WAIT).build());
    }

    private static <T> FutureTask<T> start(Callable<T> body) {
        FutureTask<T> task = new FutureTask<>(body);
        Thread.ofVirtual().start(task);
        return task;
    }

    private static <T> T join(FutureTask<T> task) throws Exception {
        try {
            return task.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static Throwable failure(FutureTask<?> task) throws Exception {
        try {
            task.get(20, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /** Alice: {@code rounds} request-replies; returns the replies and, last, the transport she ended on. */
    private static FutureTask<List<Object>> alice(SJRuntime runtime, int port, int rounds) {
        return start(() -> {
            try (SJSocket s = runtime.service(AliceClient.class, "localhost", port).request()) {
                List<Object> replies = new ArrayList<>();
                for (int i = 1; i <= rounds; i++) {
                    s.outwhile(true);
                    s.send(i);
                    replies.add(s.receiveInt());
                }
                s.outwhile(false);
                replies.add(SJRuntime.transportOf(s));
                return replies;
            }
        });
    }

    /** Serves the rest of a request-reply loop: answers {@code 10 * n}; returns how many it served. */
    private static int serveLoop(SJSocket d) {
        int served = 0;
        while (d.inwhile()) {
            d.send(10 * d.receiveInt());
            served++;
        }
        return served;
    }

    // ---- service passing ---------------------------------------------------------------------

    @Test
    void aReceivedServiceIsRequestedLikeAnyOther() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket increments = rt.serverSocket(IncrementServer.class, 0);
                SJServerSocket giver = rt.serverSocket(ServiceGiver.class, 0)) {
            FutureTask<Integer> server = start(() -> {
                try (SJSocket s = increments.accept(WAIT)) {
                    int n = s.receiveInt();
                    s.send(n + 1);
                    return n;
                }
            });
            FutureTask<Void> carol = start(() -> {
                try (SJSocket s = giver.accept(WAIT)) {
                    s.send(rt.service(Increment.class, "localhost", increments.port()));
                }
                return null;
            });
            try (SJSocket s = rt.service(ServiceTaker.class, "localhost", giver.port()).request()) {
                SJService service = s.receive();
                assertThat(service.port()).isEqualTo(increments.port());
                assertThat(service.protocol()).isEqualTo("cbegin.!<int>.?(int)");
                try (SJSocket t = service.request()) {
                    t.send(41);
                    assertThat(t.receiveInt()).isEqualTo(42);
                }
            }
            join(carol);
            assertThat(join(server)).isEqualTo(41);
        }
    }

    @Test
    void aServiceWhoseProtocolDoesNotMatchTheDeclaredTypeIsRefusedAtTheReceiver() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket giver = rt.serverSocket(ServiceGiver.class, 0)) {
            FutureTask<Void> carol = start(() -> {
                try (SJSocket s = giver.accept(WAIT)) {
                    s.send(rt.service(Other.class, "localhost", 4711)); // the monitor sees only "a service"
                }
                return null;
            });
            try (SJSocket s = rt.service(ServiceTaker.class, "localhost", giver.port()).request()) {
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("cbegin.!<java.lang.String>")
                        .hasMessageContaining("does not match the declared service type cbegin.!<int>.?(int)");
            }
            join(carol);
        }
    }

    // ---- delegation --------------------------------------------------------------------------

    @Test
    void carolDelegatesHerSessionWithAliceToBobAndAliceTalksToBobDirectly() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0);
                SJServerSocket forBob = rt.serverSocket(LoopGiver.class, 0)) {
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    b.send(a);
                    assertThatThrownBy(() -> a.receiveInt()).isInstanceOf(SJIOException.class)
                            .hasMessageContaining("delegated");
                }
                return null;
            });
            FutureTask<Integer> bob = start(() -> {
                try (SJSocket b = rt.service(LoopTaker.class, "localhost", forBob.port()).request();
                        SJSocket d = b.receive()) {
                    assertThat(SJRuntime.transportOf(d)).isEqualTo("shm");
                    return serveLoop(d);
                }
            });
            List<Object> replies = join(alice(rt, forAlice.port(), 5));
            assertThat(replies).containsExactly(10, 20, 30, 40, 50, "shm");
            assertThat(join(bob)).isEqualTo(5);
            join(carol);
        }
    }

    @Test
    void delegationInTheMiddleOfAnIterationHandsOverTheAnswerAndTheRestOfTheLoop() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0);
                SJServerSocket forBob = rt.serverSocket(MidLoopGiver.class, 0)) {
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    assertThat(a.inwhile()).isTrue();
                    a.send(10 * a.receiveInt()); // Carol answers the first herself
                    assertThat(a.inwhile()).isTrue();
                    int pending = a.receiveInt();
                    b.send(a); // remaining: !<int>.?[?(int).!<int>]*
                    b.send(pending);
                }
                return null;
            });
            FutureTask<Integer> bob = start(() -> {
                try (SJSocket b = rt.service(MidLoopTaker.class, "localhost", forBob.port()).request()) {
                    try (SJSocket d = b.receive()) {
                        int pending = b.receiveInt();
                        d.send(10 * pending);
                        return serveLoop(d);
                    }
                }
            });
            assertThat(join(alice(rt, forAlice.port(), 6))).containsExactly(10, 20, 30, 40, 50, 60, "shm");
            assertThat(join(bob)).isEqualTo(4);
            join(carol);
        }
    }

    @Test
    void delegationInsideABranch() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesBranch.class, 0);
                SJServerSocket forBob = rt.serverSocket(BranchGiver.class, 0)) {
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    Op op = a.inbranch(Op.class);
                    b.outbranch(op);
                    b.send(a);
                }
                return null;
            });
            FutureTask<List<Integer>> bob = start(() -> {
                try (SJSocket b = rt.service(BranchTaker.class, "localhost", forBob.port()).request()) {
                    Op op = b.inbranch(Op.class);
                    List<Integer> got = new ArrayList<>();
                    try (SJSocket d = b.receive()) {
                        while (d.inwhile()) {
                            int n = d.receiveInt();
                            got.add(n);
                            d.send(op == Op.DOUBLE ? 2 * n : -n);
                        }
                    }
                    return got;
                }
            });
            try (SJSocket s = rt.service(BranchAlice.class, "localhost", forAlice.port()).request()) {
                s.outbranch(Op.NEGATE);
                for (int i = 1; i <= 3; i++) {
                    s.outwhile(true);
                    s.send(i);
                    assertThat(s.receiveInt()).isEqualTo(-i);
                }
                s.outwhile(false);
            }
            assertThat(join(bob)).containsExactly(1, 2, 3);
            join(carol);
        }
    }

    @Test
    void aSessionReceivedByDelegationIsDelegatedAgainMidLoop() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0);
                SJServerSocket carolForBob = rt.serverSocket(LoopGiver.class, 0);
                SJServerSocket bobForDave = rt.serverSocket(LoopGiver.class, 0)) {
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = carolForBob.accept(WAIT)) {
                    assertThat(a.inwhile()).isTrue();
                    a.send(10 * a.receiveInt());
                    b.send(a);
                }
                return null;
            });
            FutureTask<Void> bob = start(() -> {
                try (SJSocket b = rt.service(LoopTaker.class, "localhost", carolForBob.port()).request();
                        SJSocket dave = bobForDave.accept(WAIT)) {
                    SJSocket d = b.receive();
                    assertThat(d.inwhile()).isTrue();
                    d.send(10 * d.receiveInt());
                    dave.send(d); // A→B→C: a session received by delegation, delegated again
                }
                return null;
            });
            FutureTask<Integer> dave = start(() -> {
                try (SJSocket s = rt.service(LoopTaker.class, "localhost", bobForDave.port()).request();
                        SJSocket d = s.receive()) {
                    return serveLoop(d);
                }
            });
            assertThat(join(alice(rt, forAlice.port(), 5))).containsExactly(10, 20, 30, 40, 50, "shm");
            assertThat(join(dave)).isEqualTo(3);
            join(bob);
            join(carol);
        }
    }

    @Test
    void delegatingASessionWhoseRemainingTypeDoesNotFitIsRefusedAndTheSessionStaysUsable() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0);
                SJServerSocket forBob = rt.serverSocket(WrongLoopGiver.class, 0)) {
            FutureTask<Integer> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT)) {
                    try (SJSocket b = forBob.accept(WAIT)) {
                        assertThatThrownBy(() -> b.send(a)).isInstanceOf(SJProtocolViolationException.class)
                                .hasMessageContaining("?[?(java.lang.String).!<int>]*")
                                .hasMessageContaining("?[?(int).!<int>]*");
                    } catch (SJProtocolViolationException incompleteBob) {
                        // closing b before its type is complete; Bob is told
                    }
                    return serveLoop(a); // still Carol's
                }
            });
            FutureTask<Throwable> bob = start(() -> {
                try (SJSocket b = rt.service(WrongLoopTaker.class, "localhost", forBob.port()).request()) {
                    return failure(start(b::receive));
                }
            });
            assertThat(join(alice(rt, forAlice.port(), 2))).containsExactly(10, 20, "shm");
            assertThat(join(carol)).isEqualTo(2);
            assertThat(join(bob)).isInstanceOf(SJIOException.class);
        }
    }

    @Test
    void aPeerThatFinishedItsPartBeforeTheDelegationArrivesIsCarriedWholeThroughTwoDelegations() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesStream.class, 0);
                SJServerSocket carolForBob = rt.serverSocket(StreamGiver.class, 0);
                SJServerSocket bobForDave = rt.serverSocket(StreamGiver.class, 0)) {
            List<Integer> got = new java.util.concurrent.CopyOnWriteArrayList<>();
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = carolForBob.accept(WAIT)) {
                    for (int i = 0; i < 3; i++) {
                        assertThat(a.inwhile()).isTrue();
                        got.add(a.receiveInt());
                    }
                    b.send(a);
                }
                return null;
            });
            FutureTask<Void> bob = start(() -> {
                try (SJSocket b = rt.service(StreamTaker.class, "localhost", carolForBob.port()).request();
                        SJSocket dave = bobForDave.accept(WAIT)) {
                    SJSocket d = b.receive();
                    for (int i = 0; i < 4; i++) {
                        assertThat(d.inwhile()).isTrue();
                        got.add(d.receiveInt());
                    }
                    dave.send(d);
                }
                return null;
            });
            try (SJSocket s = rt.service(StreamAlice.class, "localhost", forAlice.port()).request()) {
                for (int i = 0; i < 10; i++) {
                    s.outwhile(true);
                    s.send(i);
                }
                s.outwhile(false);
            } // Alice is done and gone: she never reads the DELEGATE
            FutureTask<Void> dave = start(() -> {
                try (SJSocket s = rt.service(StreamTaker.class, "localhost", bobForDave.port()).request();
                        SJSocket d = s.receive()) {
                    while (d.inwhile()) {
                        got.add(d.receiveInt());
                    }
                }
                return null;
            });
            join(carol);
            join(bob);
            join(dave);
            assertThat(got).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        }
    }

    @Test
    void aPeerWaitingInASelectorFollowsTheDelegation() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0);
                SJServerSocket forBob = rt.serverSocket(LoopGiver.class, 0)) {
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    b.send(a);
                }
                return null;
            });
            FutureTask<Integer> bob = start(() -> {
                try (SJSocket b = rt.service(LoopTaker.class, "localhost", forBob.port()).request();
                        SJSocket d = b.receive()) {
                    return serveLoop(d);
                }
            });
            List<Integer> replies = new ArrayList<>();
            org.sessionj.api.SJSelector selector = rt.openSelector();
            try (SJSocket s = rt.service(AliceClient.class, "localhost", forAlice.port()).request()) {
                selector.register(s);
                for (int i = 1; i <= 4; i++) {
                    s.outwhile(true);
                    s.send(i);
                    assertThat(selector.select(WAIT)).isSameAs(s);
                    replies.add(s.receiveInt());
                }
                s.outwhile(false);
            } finally {
                selector.close();
            }
            assertThat(replies).containsExactly(10, 20, 30, 40);
            assertThat(join(bob)).isEqualTo(4);
            join(carol);
        }
    }

    @Test
    void valuesPassedByReferenceAndNotYetConsumedTravelWithTheDelegatedSession() throws Exception {
        SJRuntime rt = runtime();
        List<StringBuilder> passed = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            passed.add(new StringBuilder("v" + i));
        }
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesPassing.class, 0);
                SJServerSocket forBob = rt.serverSocket(PassingGiver.class, 0)) {
            List<Object> got = new java.util.concurrent.CopyOnWriteArrayList<>();
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    for (int i = 0; i < 2; i++) {
                        assertThat(a.inwhile()).isTrue();
                        got.add(a.receive());
                    }
                    b.send(a); // Alice's other four are in flight or unread here
                }
                return null;
            });
            FutureTask<Void> bob = start(() -> {
                try (SJSocket b = rt.service(PassingTaker.class, "localhost", forBob.port()).request();
                        SJSocket d = b.receive()) {
                    while (d.inwhile()) {
                        got.add(d.receive());
                    }
                    d.send(got.size());
                }
                return null;
            });
            try (SJSocket s = rt.service(PassingAlice.class, "localhost", forAlice.port()).request()) {
                for (StringBuilder value : passed) {
                    s.outwhile(true);
                    s.pass(value);
                }
                s.outwhile(false);
                assertThat(s.receiveInt()).isEqualTo(6);
            }
            join(carol);
            join(bob);
            assertThat(got).hasSize(6);
            for (int i = 0; i < 6; i++) {
                assertThat(got.get(i)).isSameAs(passed.get(i)); // the references themselves, in order
            }
        }
    }

    // ---- failures ----------------------------------------------------------------------------

    @Test
    void aNewOwnerThatNeverTakesTheSessionFailsThePeerInBoundedTime() throws Exception {
        // The initiation timeout bounds the wait for the new owner and every ordinary handshake of this runtime
        // too: it must outlast a handshake on a loaded machine (300 ms did not, by a margin, under CI load).
        SJRuntime rt = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").initiationTimeout(Duration.ofSeconds(2)).build());
        CountDownLatch aliceDone = new CountDownLatch(1);
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0);
                SJServerSocket forBob = rt.serverSocket(LoopGiver.class, 0)) {
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    b.send(a);
                }
                return null;
            });
            FutureTask<Void> bob = start(() -> {
                try (SJSocket b = rt.service(LoopTaker.class, "localhost", forBob.port()).request()) {
                    aliceDone.await(); // Bob's program never gets round to receiving the session in time
                    assertThatThrownBy(b::receive).isInstanceOf(SJIOException.class)
                            .hasMessageContaining("could not reconnect");
                }
                return null;
            });
            FutureTask<List<Object>> alice = alice(rt, forAlice.port(), 3);
            Throwable failed = failure(alice);
            aliceDone.countDown();
            assertThat(failed).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("new owner did not reconnect within");
            join(bob);
            join(carol);
        }
    }

    @Test
    void aDelegatorThatVanishesAfterAnnouncingTheDelegationFailsThePeer() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0)) {
            FutureTask<Void> carol = start(() -> {
                SJSocket a = forAlice.accept(WAIT);
                // Carol's runtime sends DELEGATE and then the process "crashes": no hand-over follows.
                Connection c = ((SessionSocket) a).connection();
                ByteBuf notice = c.alloc().buffer().writeByte(Tags.DELEGATE).writeLong(1).writeLong(2);
                c.write(notice);
                c.flush();
                while (true) { // Alice's first iteration, then her DRAINED marker
                    ByteBuf frame = c.read(TimeUnit.SECONDS.toNanos(10));
                    byte tag = frame.getByte(frame.readerIndex());
                    frame.release();
                    if (tag == Tags.DRAINED) {
                        break;
                    }
                }
                c.close();
                return null;
            });
            Throwable failed = failure(alice(rt, forAlice.port(), 1));
            assertThat(failed).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("the delegator vanished before handing the session over");
            join(carol);
        }
    }

    @Test
    void aDelegationThatCannotReachTheNewOwnerFailsThePeerWithTheReason() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0);
                SJServerSocket forBob = rt.serverSocket(LoopGiver.class, 0)) {
            CountDownLatch bobGone = new CountDownLatch(1);
            FutureTask<Throwable> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    bobGone.await();
                    return failure(start(() -> {
                        b.send(a);
                        return null;
                    }));
                }
            });
            FutureTask<Void> bob = start(() -> {
                SJSocket b = rt.service(LoopTaker.class, "localhost", forBob.port()).request();
                ((SessionSocket) b).connection().close(); // Bob's process dies
                bobGone.countDown();
                return null;
            });
            Throwable aliceFailure = failure(alice(rt, forAlice.port(), 1));
            join(bob);
            assertThat(join(carol)).isInstanceOf(SJIOException.class);
            assertThat(aliceFailure).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("the delegation to a new owner failed");
        }
    }

    /**
     * H21-3: the delegator buffered everything the peer sent until the peer read and acknowledged the
     * delegation, without bound (a front end's 254 MB stream ended the portal demo with an
     * OutOfMemoryError). Now what it carries is bounded by one frame (sessionj.tcp.maxFrameBytes, 16 MiB):
     * a peer that sends 20 MiB without reading fails the delegation, and both sides are told why. Before,
     * all 20 MiB were drained first.
     */
    @Test
    void aPeerThatSendsMoreThanAFrameWithoutReadingFailsTheDelegationInsteadOfBeingBufferedWhole() throws Exception {
        SJRuntime rt = runtime();
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesBulk.class, 0);
                SJServerSocket forBob = rt.serverSocket(BulkGiver.class, 0)) {
            FutureTask<Throwable> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    return failure(start(() -> {
                        b.send(a);
                        return null;
                    }));
                }
            });
            FutureTask<Integer> bob = start(() -> {
                int got = 0;
                try (SJSocket b = rt.service(BulkTaker.class, "localhost", forBob.port()).request();
                        SJSocket d = b.receive()) {
                    while (d.inwhile()) {
                        byte[] bulk = d.receive();
                        got++;
                    }
                    d.send(got);
                } catch (SJIOException e) {
                    return -1; // the delegation failed: the session never came
                }
                return got;
            });
            FutureTask<Throwable> alice = start(() -> {
                try (SJSocket s = rt.service(BulkAlice.class, "localhost", forAlice.port()).request()) {
                    for (int i = 0; i < 20; i++) {
                        s.outwhile(true);
                        s.send(new byte[1 << 20]);
                    }
                    s.outwhile(false);
                    s.receiveInt();
                    return null;
                } catch (SJIOException e) {
                    return e;
                }
            });
            assertThat(join(carol)).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("a delegated session carries at most one frame of the peer's unread input")
                    .hasMessageContaining("sessionj.tcp.maxFrameBytes");
            assertThat(join(alice)).isInstanceOf(SJIOException.class).hasMessageContaining("delegation failed");
            assertThat(join(bob)).isEqualTo(-1);
        }
    }

    // ---- stress ------------------------------------------------------------------------------

    @Test
    void randomizedDelegationWithMessagesInFlightKeepsExactSequences() throws Exception {
        for (long seed = 1; seed <= 150; seed++) {
            SJRuntime rt = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").initiationTimeout(WAIT)
                    .batchBytes(16 + (int) (seed * 37 % 2048)).build());
            StressScenario.Ends ends = StressScenario.run(seed, rt, rt, rt);
            assertThat(ends.alice()).isEqualTo("shm");
            assertThat(ends.bob()).isEqualTo("shm");
        }
    }
}
