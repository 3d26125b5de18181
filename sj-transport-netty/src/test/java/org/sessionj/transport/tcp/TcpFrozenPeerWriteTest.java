package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettySettings;

/**
 * A write the peer does not take, with no send timeout set, on both TCP paths: a frozen peer (it
 * neither reads nor sends, not even heartbeats) fails the waiting writer within about the heartbeat
 * timeout, with a message that says so; a live peer that does not read (its runtime's heartbeats keep
 * coming) leaves the writer waiting, as a slow reader should; and the frozen peer does not hold up
 * another connection of the same transport meanwhile.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpFrozenPeerWriteTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** For the frozen peer, which must be found dead: waited for as an event, with a generous bound. */
    private static final Heartbeat FAST = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.MILLISECONDS.toNanos(800));
    /**
     * For the live peer that does not read, which must be left waiting across whole timeouts while
     * its heartbeats come: a thread of this test sends them, and a loaded machine may hold it for a
     * few hundred milliseconds, never for the seconds this timeout gives.
     */
    private static final Heartbeat LIVE = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.SECONDS.toNanos(3));

    private static TcpTransport transport(TcpTransport.IoMode mode) {
        return transport(mode, FAST);
    }

    private static TcpTransport transport(TcpTransport.IoMode mode, Heartbeat heartbeat) {
        return new TcpTransport(NettySettings.fromSystemProperties().withHeartbeat(heartbeat), mode);
    }

    /** A raw peer that never reads, with a small receive buffer so that the writer blocks soon. */
    private Socket rawPeer(int port) throws IOException {
        Socket raw = track(new Socket());
        raw.setReceiveBufferSize(4096);
        raw.connect(new InetSocketAddress("localhost", port), 10_000);
        return raw;
    }

    /** Writes 64 KiB frames until a write fails (no send timeout); the failure. */
    private static CompletableFuture<IOException> writeUntilFailure(Connection writer) {
        CompletableFuture<IOException> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("frozen-peer-writer").start(() -> {
            byte[] chunk = new byte[64 * 1024];
            try {
                for (long sent = 0; sent < 1L << 30; sent += chunk.length) {
                    writer.write(writer.alloc().buffer(chunk.length).writeBytes(chunk));
                    writer.flush();
                }
                result.completeExceptionally(new AssertionError("1 GiB went to a peer that never reads"));
            } catch (IOException e) {
                result.complete(e);
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /**
     * Round trips over a connection of {@code transport} (which shares the JVM's event loops with every
     * other) while the frozen peer's writer waits.
     */
    private void roundTrips(TcpTransport transport, ConnectionAcceptor acceptor, int count) throws IOException {
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        for (int i = 0; i < count; i++) {
            requester.write(requester.alloc().buffer(4).writeInt(i));
            requester.flush();
            ByteBuf frame = accepter.read(10 * SECOND);
            assertThat(frame).as("round trip %d beside the frozen peer", i).isNotNull();
            accepter.write(frame);
            accepter.flush();
            ByteBuf back = requester.read(10 * SECOND);
            assertThat(back).as("round trip %d beside the frozen peer", i).isNotNull();
            try {
                assertThat(back.readInt()).isEqualTo(i);
            } finally {
                back.release();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TcpTransport.IoMode.class)
    void aWriteToAFrozenPeerFailsWithinTheHeartbeatTimeoutWithNoSendTimeoutAndHoldsUpNoOtherConnection(
            TcpTransport.IoMode mode) throws Exception {
        TcpTransport transport = transport(mode);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        // The other connection must stay up whatever the load: it has a timeout out of reach.
        TcpTransport other = transport(mode, TcpBlockingLivenessTest.LIVELY);
        ConnectionAcceptor otherAcceptor = track(other.listen(0));
        // Before the connection exists: its silence cannot have started earlier than this.
        long started = System.nanoTime();
        rawPeer(acceptor.port());
        Connection writer = track(acceptor.accept(10 * SECOND));
        CompletableFuture<IOException> failure = writeUntilFailure(writer);
        roundTrips(other, otherAcceptor, 20);
        IOException e = failure.get(30, TimeUnit.SECONDS);
        long waited = System.nanoTime() - started;
        assertThat(e).hasMessageContaining("frozen or gone").hasMessageContaining("sessionj.heartbeat.timeout")
                .hasMessageContaining("writing").hasMessageContaining("PT0.8S")
                .as("names the connection (the peer's address)").hasMessageContaining("-> ");
        // Not before the peer was silent for about the timeout (less one look of the watchdog, whose
        // wake-ups may come a little early), and well within the test's bound.
        assertThat(waited).as("about the heartbeat timeout")
                .isGreaterThanOrEqualTo(FAST.timeoutNanos() - FAST.intervalNanos()).isLessThan(20 * SECOND);
        roundTrips(other, otherAcceptor, 3);
    }

    @ParameterizedTest
    @EnumSource(TcpTransport.IoMode.class)
    void aWriteToALivePeerThatDoesNotReadWaitsUntilThePeerFallsSilent(TcpTransport.IoMode mode) throws Exception {
        TcpTransport transport = transport(mode, LIVE);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = rawPeer(acceptor.port());
        Connection writer = track(acceptor.accept(10 * SECOND));
        // The peer's runtime answers for it: a heartbeat every interval, and it reads nothing.
        AtomicBoolean beating = new AtomicBoolean(true);
        AtomicLong lastBeat = new AtomicLong();
        AtomicLong beatsSent = new AtomicLong();
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        Thread beats = Thread.ofVirtual().start(() -> {
            try {
                while (beating.get()) {
                    out.writeInt(-1);
                    out.flush();
                    lastBeat.set(System.nanoTime());
                    beatsSent.incrementAndGet();
                    Thread.sleep(LIVE.intervalNanos() / 1_000_000); // pacing, not synchronisation
                }
            } catch (IOException | InterruptedException e) {
                // the test ends the peer
            }
        });
        long writing = System.nanoTime();
        CompletableFuture<IOException> failure = writeUntilFailure(writer);
        // Two whole timeouts of a write the peer does not take: its heartbeats keep the writer waiting.
        // (Elapsed time here only makes the span long enough to mean something; nothing fails if the
        // machine stretches it.)
        while (System.nanoTime() - writing < 2 * LIVE.timeoutNanos() || beatsSent.get() < 20) {
            try {
                failure.get(LIVE.intervalNanos(), TimeUnit.NANOSECONDS);
                throw new AssertionError("the writer failed although the peer's heartbeats kept coming: " + failure.join());
            } catch (TimeoutException expected) {
                // still waiting, as for any slow reader (only a send timeout would end it)
            } catch (ExecutionException e) {
                throw new AssertionError(e.getCause());
            }
        }
        beating.set(false);
        beats.join();
        IOException e = failure.get(30, TimeUnit.SECONDS);
        assertThat(e).hasMessageContaining("frozen or gone");
        // Measured from the last heartbeat written, not from when the beating thread was seen to stop:
        // under load its last sleep may overrun by more than an interval.
        assertThat(System.nanoTime() - lastBeat.get()).as("once the heartbeats stopped")
                .isGreaterThanOrEqualTo(LIVE.timeoutNanos() - LIVE.intervalNanos()).isLessThan(20 * SECOND);
    }
}
