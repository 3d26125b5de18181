package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.TestAcceptorGroups;
import org.sessionj.runtime.spi.Connection;

/**
 * Which handshake the pending limit drops for a new connection: one whose requester stalled, not one
 * this server is too slow to get to. Requesters here are connections whose first frame never reaches
 * the handshake (its read blocks until the connection is closed), each telling the handshakes how much
 * it sent ({@link Connection#receivedBytes}) and whether a whole frame waits ({@link Connection#frameWaiting}).
 * With a 1 s initiation timeout a handshake counts as stalled after 1 s.
 */
@Timeout(60)
class HandshakesStalledTest {
    @Protocol("sbegin.?(int)")
    interface Served {
    }

    private static final Duration STALL = Duration.ofSeconds(1);

    private static SessionContext context(int maxPending) {
        return new SessionContext(null, SJRuntimeConfig.builder().initiationTimeout(STALL)
                .maxPendingHandshakes(maxPending).build(), null);
    }

    /** A requester whose handshake waits until it is closed; how much it sent comes from {@code sent}. */
    private static final class Requester extends LatchedConnection {
        final String name;
        final LongSupplier sent;
        final boolean frameWaiting;
        final CountDownLatch reading = new CountDownLatch(1);
        /** When it was accepted ({@link Connection#acceptedNanos}); unknown unless a test sets it. */
        volatile long acceptedAt = Connection.UNKNOWN_TIME;
        /** How long its handshake waited for its first frame (the timeout of its read), or -2 before. */
        volatile long readTimeout = -2;
        /** Ends the handshake's wait for the first frame: on a close, or when the requester gives up. */
        private final CountDownLatch readEnds = new CountDownLatch(1);

        Requester(String name, LongSupplier sent, boolean frameWaiting) {
            this.name = name;
            this.sent = sent;
            this.frameWaiting = frameWaiting;
        }

        @Override
        public long receivedBytes() {
            return sent.getAsLong();
        }

        /**
         * With {@code frameWaiting}: once its handshake thread waits for it, its whole first frame is there
         * and that thread has not got to it (starved). Not before: a frame already there when the
         * connection is taken is read at once, on the taking thread.
         */
        @Override
        public boolean frameWaiting() {
            return frameWaiting && reading.getCount() == 0;
        }

        @Override
        public long acceptedNanos() {
            return acceptedAt;
        }

        @Override
        public ByteBuf read(long timeoutNanos) throws IOException {
            readTimeout = timeoutNanos;
            reading.countDown();
            try {
                readEnds.await(); // the frame never comes to the handshake; only a close or giveUp ends the wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException(name + " closed");
        }

        /** The requester goes away without a word: its handshake's read fails (a reset, say). */
        void giveUp() {
            readEnds.countDown();
        }

        @Override
        public void close() {
            super.close();
            readEnds.countDown();
        }

        boolean dropped(Duration within) throws InterruptedException {
            return closed.await(within.toNanos(), TimeUnit.NANOSECONDS);
        }

        @Override
        public String toString() {
            return name;
        }
    }


    /**
     * The handshakes, their acceptors and queue, and how far the stall rule's clock is ahead of
     * {@code System.nanoTime()}: a test ages the handshakes in progress by moving it ({@link #age}), not by sleeping.
     */
    private record Server(Handshakes handshakes, AcceptorGroup group, LinkedBlockingQueue<Connection> incoming,
            AtomicLong ahead) implements AutoCloseable {
        static Server start(int maxPending) {
            LinkedBlockingQueue<Connection> incoming = new LinkedBlockingQueue<>();
            AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.queued(incoming)));
            AtomicLong ahead = new AtomicLong();
            Handshakes handshakes = new Handshakes(group, ProtocolRegistry.of(Served.class), context(maxPending),
                    () -> System.nanoTime() + ahead.get());
            handshakes.start();
            return new Server(handshakes, group, incoming, ahead);
        }

        /** Moves the stall rule's clock by {@code time}: the handshakes in progress are that much older to it. */
        void age(Duration time) {
            ahead.addAndGet(time.toNanos());
        }

        /** Connects {@code requester} and waits until its handshake reads. */
        void connect(Requester requester) throws InterruptedException {
            incoming.add(requester);
            assertThat(requester.reading.await(20, TimeUnit.SECONDS)).as("%s in its handshake", requester).isTrue();
        }

        @Override
        public void close() throws IOException {
            handshakes.close();
            group.close();
        }
    }

    /**
     * A requester whose handshake fails and whose connection then throws from {@code close()} (an ipc
     * connection whose memory file another process truncated: the JVM's InternalError) still gets its
     * failure counted and its slot back. With one slot, a leaked slot would keep every later requester out.
     */
    @Test
    void aConnectionThatThrowsOnCloseAfterAFailedHandshakeStillGivesItsSlotBack() throws Exception {
        try (Server server = Server.start(1)) {
            for (int i = 0; i < 3; i++) {
                LatchedConnection broken = new LatchedConnection() {
                    @Override
                    public ByteBuf read(long timeoutNanos) throws IOException {
                        throw new IOException("its memory is gone");
                    }

                    @Override
                    public void close() {
                        super.close();
                        throw new InternalError("a fault occurred in an unsafe memory access operation");
                    }
                };
                server.incoming().add(broken);
                assertThat(broken.closed.await(20, TimeUnit.SECONDS)).as("broken requester %d closed", i).isTrue();
            }
            Requester next = new Requester("next", () -> 0, false);
            server.connect(next); // within 20 s: a slot is free
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (server.handshakes().failures() < 3 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // counted after the close
            }
            assertThat(server.handshakes().failures()).as("every failure counted").isEqualTo(3);
            next.giveUp();
        }
    }

    /** Waits for {@code latch}, for a hook inside a handshake's look at its requester (bounded, never forever). */
    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Two threads look for a stalled handshake at once (the handshake pump, and a TLS connection waiting
     * for a slot on an event loop): the first is held inside its look at the stalled requester while the
     * second looks. The handshake is dropped once, and its drop is counted back, so drops go on. Before,
     * both picked it and counted a drop, only one came back, and no handshake was dropped any more
     * (TlsPendingLimitTest's real client then waited past its 10 s TLS handshake timeout).
     */
    @Test
    void twoThreadsLookingAtOnceDropAStalledHandshakeOnceAndCountItBack() throws Exception {
        CountDownLatch firstLooking = new CountDownLatch(1);
        CountDownLatch secondLooked = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger looks = new java.util.concurrent.atomic.AtomicInteger();
        try (Server server = Server.start(1)) {
            Requester stalled = new Requester("stalled", () -> {
                if (looks.incrementAndGet() == 1) {
                    firstLooking.countDown();
                    await(secondLooked);
                }
                return 0;
            }, false);
            server.connect(stalled);
            Requester next = new Requester("next", () -> 0, false);
            server.incoming.add(next); // waits for a slot; the pump looks once `stalled` is past the stall age
            await(firstLooking);
            assertThat(server.handshakes.tryEnter("tls", () -> { })).as("no slot free").isNull();
            secondLooked.countDown();

            assertThat(stalled.dropped(STALL.multipliedBy(15))).isTrue();
            assertThat(next.reading.await(20, TimeUnit.SECONDS)).as("the new connection got its slot").isTrue();
            assertThat(server.handshakes.droppedUnreleased()).as("the drop was counted back").isZero();
            assertThat(server.handshakes.failures()).isEqualTo(1);
        }
    }

    /**
     * A handshake that ends (its requester went away) while a thread looks at it as a stalled one is not
     * dropped afterwards: nothing is counted as dropped, so drops go on. Before, it was marked dropped
     * after it had ended and its slot had come back, and that drop was never counted back.
     */
    @Test
    void aHandshakeThatEndsWhileItIsLookedAtIsNotDroppedAfterwards() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Requester> self = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<Server> serverRef = new java.util.concurrent.atomic.AtomicReference<>();
        try (Server server = Server.start(1)) {
            serverRef.set(server);
            Requester leaving = new Requester("leaving", () -> {
                // Looked at as a stalled handshake: the requester goes away now, and its handshake ends
                // (counted as failed) before the look goes on.
                self.get().giveUp();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (serverRef.get().handshakes.failures() == 0 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                return 0;
            }, false);
            self.set(leaving);
            server.connect(leaving);
            Requester next = new Requester("next", () -> 0, false);
            server.incoming.add(next);
            assertThat(next.reading.await(20, TimeUnit.SECONDS)).as("the new connection got the slot").isTrue();
            assertThat(server.handshakes.failures()).isEqualTo(1);
            assertThat(leaving.isClosed()).as("closed by its failed handshake").isTrue();
            assertThat(server.handshakes.droppedUnreleased()).as("nothing counted as dropped").isZero();
        }
    }

    @Test
    void aRequestWaitingForAStarvedHandshakeIsNotDroppedButASilentRequesterIs() throws Exception {
        try (Server server = Server.start(2)) {
            Requester starved = new Requester("starved", () -> 300, true); // its whole request arrived
            Requester silent = new Requester("silent", () -> 0, false);
            server.connect(starved);
            server.connect(silent);
            // At the limit a third connection waits; no handshake succeeds, so a stalled one is dropped for it.
            Requester next = new Requester("next", () -> 0, false);
            server.incoming.add(next);
            assertThat(silent.dropped(STALL.multipliedBy(15))).as("the silent requester is dropped").isTrue();
            assertThat(next.reading.await(20, TimeUnit.SECONDS)).as("the new connection got its slot").isTrue();
            // The starved one is older, and was never dropped (before, age alone decided: it went first).
            assertThat(starved.isClosed()).isFalse();
            // The next drop takes the newcomer (silent, too), not the starved request.
            Requester last = new Requester("last", () -> 0, false);
            server.incoming.add(last);
            assertThat(next.dropped(STALL.multipliedBy(15))).isTrue();
            assertThat(starved.isClosed()).as("a whole request waiting is never dropped").isFalse();
            // Counted by each dropped handshake's thread once its read fails, just after the close.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (server.handshakes.failures() < 2 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(server.handshakes.failures()).isEqualTo(2);
        }
    }

    @Test
    void aRequesterThatSentNothingIsDroppedBeforeAnOlderOneThatSentPartOfItsRequest() throws Exception {
        try (Server server = Server.start(2)) {
            Requester partial = new Requester("partial", () -> 1, false); // one byte of a header, then nothing
            Requester silent = new Requester("silent", () -> 0, false);
            server.connect(partial);
            server.connect(silent);
            // Both past the stall age before a connection needs a slot, so that both are candidates (else
            // the one that ages first is the only one, and goes): the rule's clock moves, nobody sleeps.
            server.age(STALL.plusMillis(100));
            Requester next = new Requester("next", () -> 0, false);
            server.incoming.add(next);
            assertThat(silent.dropped(STALL.multipliedBy(15))).as("the younger, silent one goes first").isTrue();
            assertThat(partial.isClosed()).as("the older one, which sent a byte, stays while a silent one can go")
                    .isFalse();
            assertThat(next.reading.await(20, TimeUnit.SECONDS)).isTrue();
            server.age(STALL.plusMillis(100));
            server.incoming.add(new Requester("last", () -> 0, false));
            assertThat(next.dropped(STALL.multipliedBy(15))).as("again the silent one").isTrue();
            assertThat(partial.isClosed()).isFalse();
        }
    }


    /**
     * The initiation timeout runs from the accept, not from the start of the handshake: a connection that
     * waited in the acceptor's queue for longer than it (behind a flood that held every slot) gets one
     * last look for a request already there, not a whole timeout more; one accepted half a timeout ago
     * gets the other half, and one of a transport that does not say when it accepted gets it from the start of its handshake.
     * Before, each wave of a slowloris taken from the queue had a whole timeout (and stall time) again.
     */
    @Test
    void theInitiationTimeoutCountsFromTheAcceptNotFromTheStartOfTheHandshake() throws Exception {
        try (Server server = Server.start(3)) {
            Requester queued = new Requester("queued", () -> 1, false);
            queued.acceptedAt = System.nanoTime() - STALL.multipliedBy(10).toNanos();
            Requester fresh = new Requester("fresh", () -> 1, false);
            fresh.acceptedAt = System.nanoTime() - STALL.toNanos() / 2;
            Requester unknown = new Requester("unknown", () -> 1, false);
            server.connect(queued);
            server.connect(fresh);
            server.connect(unknown);
            assertThat(queued.readTimeout).as("a last look only").isEqualTo(Initiation.LAST_LOOK_NANOS);
            assertThat(fresh.readTimeout).as("what is left of the timeout since its accept, half of it or less")
                    .isLessThanOrEqualTo(STALL.toNanos() / 2).isGreaterThan(0);
            assertThat(unknown.readTimeout).as("the whole timeout").isEqualTo(STALL.toNanos());
        }
    }

    @Test
    void aRequesterStillSendingItsRequestIsNotDroppedUntilItStops() throws Exception {
        try (Server server = Server.start(1)) {
            // It has sent more at every look, 64 KiB (more than 1 KiB a second since its accept, the pace of a
            // requester sending its request: a byte a look is a slowloris, HandshakesUnderPressureTest): slow,
            // not stalled. Then it stops.
            AtomicLong sent = new AtomicLong();
            java.util.concurrent.atomic.AtomicBoolean sending = new java.util.concurrent.atomic.AtomicBoolean(true);
            Requester slow = new Requester("slow", () -> sending.get() ? sent.addAndGet(65536) : sent.get(), false);
            server.connect(slow);
            server.incoming.add(new Requester("next", () -> 0, false));
            assertThat(slow.dropped(STALL.multipliedBy(4))).as("dropped while it still sent").isFalse();
            long looks = sent.get() / 65536;
            assertThat(looks).as("it was looked at, as a candidate, several times").isGreaterThan(3);
            sending.set(false);
            assertThat(slow.dropped(STALL.multipliedBy(15))).as("dropped once it stopped").isTrue();
        }
    }
}
