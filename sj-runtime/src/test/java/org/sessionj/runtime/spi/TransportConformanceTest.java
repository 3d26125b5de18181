package org.sessionj.runtime.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.testing.ConnectionTestSupport;

/**
 * The Abstract Transport contract, checked against one transport. Every transport module extends
 * this class in its tests (it ships in sj-runtime's test-jar) and supplies {@link #transport()}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
public abstract class TransportConformanceTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);


    /** The transport under test. */
    protected abstract Transport transport();

    /** The host name under which this machine reaches the transport's acceptors. */
    protected String host() {
        return "localhost";
    }

    /** A connected pair: [0] the connecting end, [1] the accepted end. */
    protected Connection[] connectedPair() throws IOException {
        ConnectionAcceptor acceptor = track(transport().listen(0));
        Connection requester = track(transport().connect(host(), acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        assertThat(accepter).as("accepted connection").isNotNull();
        return new Connection[] {requester, accepter};
    }

    /**
     * Whether writes to a peer that does not read end up waiting (the transport bounds what it
     * buffers), so that the send timeout applies. Only a transport with an unbounded queue says no.
     */
    protected boolean boundsOutbound() {
        return true;
    }

    /**
     * Whether the transport applies {@link Connection#sendTimeout}. Only a transport that documents the
     * send timeout as not supported (tcp's opt-in blocking mode, for now) says no.
     */
    protected boolean appliesSendTimeout() {
        return true;
    }

    /**
     * The session layer's frames ({@link Frame}, through {@link org.sessionj.runtime.spi.support.Frames}:
     * a {@link FrameConnection}'s own frames, a view over a buffer otherwise) arrive whole and in order,
     * mixed with frames written as buffers, and either kind reads as the other.
     */
    @Test
    void sessionFramesAndBuffersArriveWholeAndInOrder() throws Exception {
        Connection[] pair = connectedPair();
        Connection writer = pair[0];
        Connection reader = pair[1];
        for (int i = 0; i < 3; i++) {
            Frame frame = org.sessionj.runtime.spi.support.Frames.newFrame(writer, 16);
            frame.writeByte(i).writeLong(-i).writeBytes(new byte[300]); // grows past its first capacity
            org.sessionj.runtime.spi.support.Frames.write(writer, frame);
            writer.write(writer.alloc().buffer().writeInt(100 + i));
            writer.flush();
        }
        for (int i = 0; i < 3; i++) {
            ByteBuf asBuffer = reader.read(10 * SECOND);
            assertThat(asBuffer.readableBytes()).isEqualTo(1 + 8 + 300);
            assertThat(asBuffer.readByte()).isEqualTo((byte) i);
            assertThat(asBuffer.readLong()).isEqualTo(-i);
            asBuffer.release();
            Frame asFrame = org.sessionj.runtime.spi.support.Frames.read(reader, 10 * SECOND);
            assertThat(asFrame.readableBytes()).isEqualTo(4);
            assertThat(asFrame.readInt()).isEqualTo(100 + i);
            asFrame.release();
        }
    }

    @Test
    void aWriterWhosePeerDoesNotReadGetsAWriteTimeoutWithinTheSendTimeout() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(boundsOutbound(), "the transport's outbound queue is unbounded");
        org.junit.jupiter.api.Assumptions.assumeTrue(appliesSendTimeout(), "the transport has no send timeout");
        Connection[] pair = connectedPair();
        Connection writer = pair[0];
        writer.sendTimeout(TimeUnit.MILLISECONDS.toNanos(300));
        byte[] chunk = new byte[64 * 1024];
        long sent = 0;
        long started = System.nanoTime();
        Throwable failure = null;
        try {
            while (sent < 1L << 30) { // the reader never reads; a transport must stop the writer long before 1 GiB
                writer.write(writer.alloc().buffer(chunk.length).writeBytes(chunk));
                writer.flush();
                sent += chunk.length;
            }
        } catch (IOException e) {
            failure = e;
        }
        assertThat(failure).as("after %d bytes", sent).isInstanceOf(WriteTimeoutException.class);
        assertThat(sent).as("bytes accepted before the writer had to wait").isLessThan(256L << 20);
        assertThat(System.nanoTime() - started).as("the writer waited only about its send timeout")
                .isLessThan(25 * SECOND);
    }

    @Test
    void hasAName() {
        assertThat(transport().name()).isNotBlank();
    }

    @Test
    void listenOnPortZeroPicksAPort() throws IOException {
        ConnectionAcceptor acceptor = track(transport().listen(0));
        assertThat(acceptor.port()).isBetween(1, 65535);
        assertThat(transport().canReach(host(), acceptor.port())).isTrue();
    }

    @Test
    void listeningTwiceOnOnePortFails() throws IOException {
        ConnectionAcceptor acceptor = track(transport().listen(0));
        assertThatThrownBy(() -> track(transport().listen(acceptor.port()))).isInstanceOf(IOException.class);
    }

    @Test
    void framesArriveWholeAndInOrderBothWays() throws IOException {
        Connection[] ends = connectedPair();
        for (int i = 0; i < 10; i++) {
            ends[0].write(frame(ends[0], "to accepter " + i));
        }
        ends[0].flush();
        ends[1].write(frame(ends[1], "to requester"));
        ends[1].flush();
        for (int i = 0; i < 10; i++) {
            assertThat(text(ends[1].read(10 * SECOND))).isEqualTo("to accepter " + i);
        }
        assertThat(text(ends[0].read(10 * SECOND))).isEqualTo("to requester");
    }

    @Test
    void readTimesOutWithNull() throws IOException {
        Connection[] ends = connectedPair();
        assertThat(ends[0].read(TimeUnit.MILLISECONDS.toNanos(20))).isNull();
        assertThat(ends[0].isReadable()).isFalse();
    }

    @Test
    void isReadableOnceAFrameArrived() throws Exception {
        Connection[] ends = connectedPair();
        ends[1].write(frame(ends[1], "x"));
        ends[1].flush();
        long deadline = System.nanoTime() + 10 * SECOND;
        while (!ends[0].isReadable()) {
            assertThat(System.nanoTime()).as("frame became readable in time").isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(text(ends[0].read(0))).isEqualTo("x");
    }

    @Test
    void readinessListenerRunsWhenAFrameArrives() throws Exception {
        Connection[] ends = connectedPair();
        CountDownLatch signalled = new CountDownLatch(1);
        ends[0].readinessListener(signalled::countDown);
        ends[1].write(frame(ends[1], "x"));
        ends[1].flush();
        assertThat(signalled.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(text(ends[0].read(SECOND))).isEqualTo("x");
    }

    @Test
    void closeIsDetectedByThePeersNextReadAfterEarlierFrames() throws IOException {
        Connection[] ends = connectedPair();
        ends[0].write(frame(ends[0], "last words"));
        ends[0].flush();
        ends[0].close();
        assertThat(ends[0].isClosed()).isTrue();
        assertThat(text(ends[1].read(10 * SECOND))).isEqualTo("last words");
        assertThatThrownBy(() -> ends[1].read(10 * SECOND)).isInstanceOf(IOException.class);
    }

    /**
     * A burst written just before a close (some frames larger than any transport's buffer of a
     * direction) reaches the peer whole, whichever end writes and closes: the close must drain what is
     * buffered, not tear the stream down under it (hostile17 H1), nor reset it when the reader writes
     * meanwhile (over tls an RST once cost the reader the last of 40 frames). The reader reads as the
     * writer writes.
     */
    @Test
    void aBurstWrittenJustBeforeACloseArrivesWholeFromTheConnectingEnd() throws Exception {
        Connection[] ends = connectedPair();
        burstThenClose(ends[0], ends[1]);
    }

    /** As {@link #aBurstWrittenJustBeforeACloseArrivesWholeFromTheConnectingEnd}, the accepted end writing. */
    @Test
    void aBurstWrittenJustBeforeACloseArrivesWholeFromTheAcceptedEnd() throws Exception {
        Connection[] ends = connectedPair();
        burstThenClose(ends[1], ends[0]);
    }

    private static final int BURST_FRAMES = 40;

    /** Frame {@code i} of a burst: every tenth 3 MiB, the others 1 KiB; each starts with its index. */
    private static int burstSize(int i) {
        return i % 10 == 9 ? 3 << 20 : 1024;
    }

    private static void burstThenClose(Connection writer, Connection reader) throws Exception {
        CompletableFuture<Void> wrote = CompletableFuture.runAsync(() -> {
            try {
                for (int i = 0; i < BURST_FRAMES; i++) {
                    int size = burstSize(i);
                    writer.write(writer.alloc().buffer(size).writeInt(i).writeZero(size - 4));
                }
                writer.flush();
                writer.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        int received = 0;
        try {
            for (; received < BURST_FRAMES; received++) {
                ByteBuf frame = reader.read(20 * SECOND);
                assertThat(frame).as("frame %d", received).isNotNull();
                try {
                    assertThat(frame.readableBytes()).as("frame %d's size", received).isEqualTo(burstSize(received));
                    assertThat(frame.readInt()).as("frame %d's index", received).isEqualTo(received);
                } finally {
                    frame.release();
                }
            }
        } catch (IOException e) {
            throw new AssertionError("after " + received + " of " + BURST_FRAMES + " frames: " + e.getMessage(), e);
        }
        wrote.get(25, TimeUnit.SECONDS);
        assertThatThrownBy(() -> reader.read(10 * SECOND)).as("the close after the burst").isInstanceOf(IOException.class);
    }

    @Test
    void closeWakesABlockedReader() throws Exception {
        Connection[] ends = connectedPair();
        CountDownLatch reading = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            reading.countDown();
            try {
                ByteBuf unexpected = ends[1].read(-1);
                unexpected.release();
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        reading.await();
        ends[0].close();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
    }

    @Test
    void closeRunsTheReadinessListener() throws Exception {
        Connection[] ends = connectedPair();
        CountDownLatch signalled = new CountDownLatch(1);
        ends[1].readinessListener(signalled::countDown);
        ends[0].close();
        assertThat(signalled.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ends[1].isReadable()).as("the close is readable").isTrue();
    }

    @Test
    void writingAfterTheLocalCloseFails() throws IOException {
        Connection[] ends = connectedPair();
        ends[0].close();
        assertThatThrownBy(() -> {
            ends[0].write(frame(ends[0], "too late"));
            ends[0].flush();
        }).isInstanceOf(IOException.class);
    }

    @Test
    void connectingToAPortNobodyListensOnFails() throws IOException {
        ConnectionAcceptor acceptor = transport().listen(0);
        int port = acceptor.port();
        acceptor.close();
        assertThat(transport().canReach(host(), port)).isFalse();
        assertThatThrownBy(() -> track(transport().connect(host(), port, SECOND))).isInstanceOf(IOException.class);
    }

    @Test
    void acceptTimesOutWithNull() throws IOException {
        ConnectionAcceptor acceptor = track(transport().listen(0));
        assertThat(acceptor.accept(TimeUnit.MILLISECONDS.toNanos(20))).isNull();
    }

    @Test
    void closingTheAcceptorFailsAWaitingAccept() throws Exception {
        ConnectionAcceptor acceptor = transport().listen(0);
        CountDownLatch accepting = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            accepting.countDown();
            try {
                track(acceptor.accept(-1));
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        accepting.await();
        acceptor.close();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
    }

    @Test
    void aLargeFrameArrivesIntact() throws IOException {
        Connection[] ends = connectedPair();
        ByteBuf big = ends[0].alloc().buffer(1 << 20);
        for (int i = 0; i < (1 << 18); i++) {
            big.writeInt(i);
        }
        ends[0].write(big);
        ends[0].flush();
        ByteBuf received = ends[1].read(10 * SECOND);
        try {
            assertThat(received.readableBytes()).isEqualTo(1 << 20);
            for (int i = 0; i < (1 << 18); i++) {
                assertThat(received.readInt()).isEqualTo(i);
            }
        } finally {
            received.release();
        }
    }

    @Test
    void aStreamBetweenVirtualThreadsKeepsOrder() throws Exception {
        Connection[] ends = connectedPair();
        int count = 20_000;
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                for (int i = 0; i < count; i++) {
                    ByteBuf buf = ends[0].alloc().buffer(4);
                    buf.writeInt(i);
                    ends[0].write(buf);
                    if (i % 64 == 0) {
                        ends[0].flush();
                    }
                }
                ends[0].flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        AtomicInteger next = new AtomicInteger();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                while (next.get() < count) {
                    ByteBuf buf = ends[1].read(10 * SECOND);
                    if (buf == null) {
                        return;
                    }
                    try {
                        while (buf.isReadable()) {
                            if (buf.readInt() != next.get()) {
                                return;
                            }
                            next.incrementAndGet();
                        }
                    } finally {
                        buf.release();
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        writer.join();
        reader.join();
        assertThat(next.get()).isEqualTo(count);
    }

    @Test
    void localConnectionsPassReferencesInOrderWithFrames() throws IOException {
        Connection[] ends = connectedPair();
        LocalConnection sender = ends[0].capability(LocalConnection.class);
        LocalConnection receiver = ends[1].capability(LocalConnection.class);
        if (sender == null) {
            assertThat(receiver).isNull();
            return; // not a local transport: nothing more to check
        }
        int[] first = {1};
        Object second = new Object();
        sender.writeReference(first);
        sender.writeReference(second);
        sender.write(frame(ends[0], "two references"));
        sender.writeReference(null);
        sender.write(frame(ends[0], "one null"));
        sender.flush();
        assertThat(text(receiver.read(SECOND))).isEqualTo("two references");
        assertThat(receiver.readReference()).isSameAs(first);
        assertThat(receiver.readReference()).isSameAs(second);
        assertThat(text(receiver.read(SECOND))).isEqualTo("one null");
        assertThat(receiver.readReference()).isNull();
        assertThatThrownBy(receiver::readReference).isInstanceOf(IOException.class);
    }
}
