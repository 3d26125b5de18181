package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.TestAcceptorGroups;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.support.ByteBufFrame;

/**
 * The pending-limit drop against a flooder that games it (hostile17 H5, H2): one that keeps a handshake
 * succeeding now and then so that "no handshake succeeded for 5 s" never holds, one that trickles a byte
 * per look so that each of its connections is "still sending", and one source address holding most of the
 * slots next to another's requester. The stall rule's time is a clock the test drives (the requesters'
 * reads block until they are closed and ignore it), so what counts as stalled does not depend on how fast
 * a loaded machine runs the test: only how soon the pump looks does, and every wait for that is bounded.
 * The initiation timeout is 30 s, so a handshake counts as stalled after 5 s of the test's clock.
 */
@Timeout(120)
class HandshakesUnderPressureTest {
    @Protocol("sbegin.?(int)")
    interface Served {
    }

    private static final CompiledProtocol PROTOCOL = ProtocolRegistry.of(Served.class);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** How long a test waits for what the pump does at its next look (it looks every 100 ms). */
    private static final Duration BOUND = Duration.ofSeconds(20);

    private static InetAddress address(int last) {
        try {
            return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) last});
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static final InetAddress FLOODER = address(1);
    private static final InetAddress HONEST = address(2);

    /** A requester whose first frame never reaches its handshake: its read waits until it is closed. */
    private static class Requester extends LatchedConnection {
        final String name;
        final LongSupplier sent;
        final InetAddress from;
        final boolean frameWaiting;
        final CountDownLatch reading = new CountDownLatch(1);
        private final CountDownLatch readEnds = new CountDownLatch(1);

        Requester(String name, InetAddress from, LongSupplier sent, boolean frameWaiting) {
            this.name = name;
            this.from = from;
            this.sent = sent;
            this.frameWaiting = frameWaiting;
        }

        @Override
        public long receivedBytes() {
            return sent.getAsLong();
        }

        @Override
        public boolean frameWaiting() {
            return frameWaiting && reading.getCount() == 0;
        }

        @Override
        public InetAddress peerAddress() {
            return from;
        }

        /** When it was accepted, on the test's clock ({@link Connection#acceptedNanos}); unknown unless set. */
        volatile long acceptedAt = Connection.UNKNOWN_TIME;

        @Override
        public long acceptedNanos() {
            return acceptedAt;
        }

        @Override
        public ByteBuf read(long timeoutNanos) throws IOException {
            reading.countDown();
            try {
                readEnds.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException(name + " closed");
        }

        @Override
        public void close() {
            super.close();
            readEnds.countDown();
        }

        boolean dropped() throws InterruptedException {
            return closed.await(BOUND.toNanos(), TimeUnit.NANOSECONDS);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A requester whose whole, compatible session request is its first frame: its handshake succeeds. */
    private static final class Succeeding extends Requester {
        private final AtomicBoolean sentRequest = new AtomicBoolean();

        Succeeding(String name, InetAddress from) {
            super(name, from, () -> 64, false);
        }

        @Override
        public ByteBuf read(long timeoutNanos) throws IOException {
            if (sentRequest.compareAndSet(false, true)) {
                ByteBufFrame out = new ByteBufFrame(Unpooled.buffer(64));
                out.writeByte(Tags.REQUEST).writeByte(Tags.MAGIC_0).writeByte(Tags.MAGIC_1).writeByte(Tags.REQUEST_VERSION);
                ValueCodec.writeString(out, "cbegin.!<int>"); // the dual of Served
                return out.buf();
            }
            return super.read(timeoutNanos);
        }
    }

    private record Server(Handshakes handshakes, AcceptorGroup group, LinkedBlockingQueue<Connection> incoming,
            AtomicLong clock) implements AutoCloseable {
        static Server start(int maxPending) {
            LinkedBlockingQueue<Connection> incoming = new LinkedBlockingQueue<>();
            AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.queued(incoming)));
            SessionContext context = new SessionContext(null, SJRuntimeConfig.builder()
                    .initiationTimeout(Duration.ofSeconds(30)).maxPendingHandshakes(maxPending).build(), null);
            AtomicLong clock = new AtomicLong(1_000 * SECOND);
            Handshakes handshakes = new Handshakes(group, PROTOCOL, context, clock::get);
            handshakes.start();
            return new Server(handshakes, group, incoming, clock);
        }

        /** Connects {@code requester} and waits until its handshake reads. */
        void connect(Requester requester) throws InterruptedException {
            incoming.add(requester);
            assertThat(requester.reading.await(BOUND.toNanos(), TimeUnit.NANOSECONDS))
                    .as("%s in its handshake", requester).isTrue();
        }

        void advance(long nanos) {
            clock.addAndGet(nanos);
        }

        long secondsNow() {
            return clock.get() / SECOND;
        }

        @Override
        public void close() throws IOException {
            handshakes.close();
            group.close();
        }
    }

    /**
     * hostile17 H5: a flooder whose handshakes sometimes succeed. Its stalled connections held their slots
     * for as long as one of its handshakes had succeeded within the last 5 s, so a newcomer waited for a
     * slot until the initiation timeout, and behind the next wave again. Now a handshake stalled for twice
     * the stall time is dropped at the limit whatever else succeeds; a whole request waiting for a starved
     * handshake still never is, nor is one stalled for less.
     */
    @Test
    void aFlooderWhoseHandshakesSucceedNowAndThenCannotKeepItsStalledConnectionsInTheirSlots() throws Exception {
        try (Server server = Server.start(4)) {
            Requester starved = new Requester("starved", HONEST, () -> 300, true); // its whole request waits
            Requester first = new Requester("stalled 1", FLOODER, () -> 0, false);
            Requester second = new Requester("stalled 2", FLOODER, () -> 0, false);
            server.connect(starved);
            server.connect(first);
            server.connect(second);
            server.advance(6 * SECOND);
            // The flooder's cheap handshake succeeds (its session taken), and another stalled one takes its slot.
            java.util.concurrent.atomic.AtomicReference<Object> failure = new java.util.concurrent.atomic.AtomicReference<>();
            server.handshakes().failureListener(failure::set);
            server.incoming().add(new Succeeding("cheap", FLOODER));
            SessionSocket cheap = server.handshakes().next(BOUND.toNanos());
            assertThat(cheap).as("the flooder's cheap session (failed: %s)", failure).isNotNull();
            cheap.connection().close();
            Requester young = new Requester("stalled 3", FLOODER, () -> 0, false);
            server.connect(young);
            // 4 s after that success (less than the stall time: before, nothing was dropped), 10 s after the first.
            server.advance(4 * SECOND);
            Requester newcomer = new Requester("newcomer", HONEST, () -> 0, false);
            server.incoming().add(newcomer);
            assertThat(newcomer.reading.await(BOUND.toNanos(), TimeUnit.NANOSECONDS))
                    .as("a newcomer gets a slot while the flooder's handshakes succeed now and then").isTrue();
            assertThat(first.isClosed() || second.isClosed()).as("a connection stalled for 10 s dropped").isTrue();
            assertThat(starved.isClosed()).as("a whole request waiting is never dropped").isFalse();
            assertThat(young.isClosed()).as("one stalled for 4 s is kept while handshakes succeed").isFalse();
        }
    }

    /**
     * While handshakes succeed, the longer stall counts in the slot, not from the accept: a real requester of
     * a burst that waited 20 s in the acceptor's queue, whose request (300 bytes, sent at once) its handshake
     * thread has not read yet on a starved blocking-tcp server (which cannot tell a whole frame waiting), is
     * kept one second into its handshake, and a flooder's connection stalled 11 s in its slot goes instead.
     * Counted from the accept, the older, queued one went first.
     */
    @Test
    void whileHandshakesSucceedALongStallCountsInTheSlotNotInTheAcceptorsQueue() throws Exception {
        try (Server server = Server.start(2)) {
            Requester stalled = new Requester("stalled", FLOODER, () -> 1, false);
            server.connect(stalled);
            server.advance(10 * SECOND);
            server.incoming().add(new Succeeding("cheap", FLOODER));
            SessionSocket cheap = server.handshakes().next(BOUND.toNanos());
            assertThat(cheap).as("a session agreed").isNotNull();
            cheap.connection().close();
            Requester queued = new Requester("queued", HONEST, () -> 300, false);
            queued.acceptedAt = server.clock().get() - 20 * SECOND;
            server.connect(queued);
            server.advance(SECOND);
            Requester newcomer = new Requester("newcomer", address(5), () -> 0, false);
            server.incoming().add(newcomer);
            assertThat(newcomer.reading.await(BOUND.toNanos(), TimeUnit.NANOSECONDS)).as("the newcomer served").isTrue();
            assertThat(stalled.isClosed()).as("stalled 11 s in its slot: dropped").isTrue();
            assertThat(queued.isClosed()).as("1 s into its handshake: kept").isFalse();
        }
    }

    /**
     * hostile17 H2: a slowloris that sends one more byte at every look was "still sending" by the byte test,
     * never dropped, and held its slot for the whole initiation timeout. Now a requester past the stall time
     * whose first frame is not whole must have sent at least 1 KiB a second on average since its accept;
     * one that keeps sending at a request's pace is kept (the previous attempt's signal dropped a healthy
     * loopback client: here the pace is the test clock's, not the machine's).
     */
    @Test
    void aSlowlorisThatTricklesAByteAtEveryLookIsDroppedAndARequesterSendingAtARequestsPaceIsKept()
            throws Exception {
        try (Server server = Server.start(2)) {
            AtomicLong trickled = new AtomicLong();
            Requester trickle = new Requester("trickle", address(3), trickled::incrementAndGet, false);
            long start = server.secondsNow();
            AtomicLong looks = new AtomicLong();
            // 4 KiB a second of the test's clock, and a byte more at every look even while that clock stands.
            Requester steady = new Requester("steady", address(4),
                    () -> 4096 * (server.secondsNow() - start) + looks.incrementAndGet(), false);
            server.connect(trickle);
            server.connect(steady);
            server.advance(6 * SECOND);
            Requester newcomer = new Requester("newcomer", HONEST, () -> 0, false);
            server.incoming().add(newcomer);
            assertThat(trickle.dropped()).as("the trickling slowloris dropped").isTrue();
            assertThat(newcomer.reading.await(BOUND.toNanos(), TimeUnit.NANOSECONDS)).as("the newcomer served").isTrue();
            assertThat(steady.isClosed()).as("a requester sending at a request's pace kept").isFalse();
            assertThat(trickled.get()).as("the slowloris sent a byte at every look").isGreaterThan(0)
                    .isLessThan(6 * StallRule.MIN_REQUEST_BYTES_PER_SECOND);
        }
    }

    /**
     * Fairness between source addresses: at the limit, the stalled handshakes of the address that holds the
     * most of them go first, before an older, silent one of another address (before, silent ones went first,
     * then the oldest, whatever their source: a flooder whose connections each sent a byte pushed out the
     * honest requester that had not sent yet).
     */
    @Test
    void theAddressWithTheMostStalledHandshakesLosesOneBeforeAnotherAddressLosesItsOnlyOne() throws Exception {
        try (Server server = Server.start(3)) {
            Requester honest = new Requester("honest", HONEST, () -> 0, false);
            server.connect(honest);
            server.advance(SECOND);
            Requester first = new Requester("flood 1", FLOODER, () -> 1, false);
            Requester second = new Requester("flood 2", FLOODER, () -> 1, false);
            server.connect(first);
            server.connect(second);
            server.advance(6 * SECOND);
            Requester newcomer = new Requester("newcomer", address(5), () -> 0, false);
            server.incoming().add(newcomer);
            assertThat(newcomer.reading.await(BOUND.toNanos(), TimeUnit.NANOSECONDS)).as("the newcomer served").isTrue();
            assertThat(first.isClosed() || second.isClosed()).as("one of the flooder's dropped").isTrue();
            assertThat(honest.isClosed()).as("the other address's only handshake kept").isFalse();
        }
    }

    /** The rate rule's arithmetic, in bytes from the accept. */
    @Test
    void theRequestRateIsAnAverageSinceTheAccept() {
        assertThat(StallRule.belowRequestRate(5 * 1024 - 1, 5 * SECOND)).isTrue();
        assertThat(StallRule.belowRequestRate(5 * 1024, 5 * SECOND)).isFalse();
        assertThat(StallRule.belowRequestRate(0, 0)).isFalse();
        assertThat(StallRule.belowRequestRate(20_000, 30 * SECOND)).isTrue();
    }
}
