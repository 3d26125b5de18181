package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettyConnection;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.transport.netty.internal.UnreadBytes;

/**
 * Frames received and not read, over all connections (hostile H6): each connection stops reading at its own mark
 * (1 MiB of charge), but N peers that pipeline frames and never read the answers held N times it, and 60 of them
 * filled a 128 MiB server for good. Past its share, a connection's unread frames come out of one budget for the
 * process; while it is spent, the connections past their share stop reading until their own program catches up.
 * And a writer blocked for a peer that this side has stopped reading fails after the heartbeat timeout (neither
 * side can move), while a program that merely reads nothing for longer than that keeps its connection.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TcpUnreadBytesTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int KIB = 1024;
    /** Frames of 1 KiB: one socket read (at most 64 KiB) is then ~72 KiB of charge, little beside the mark. */
    private static final int FRAME = KIB;

    /** Writes {@code frames} frames of {@link #FRAME} bytes, then heartbeats every 50 ms while {@code beat} says so. */
    private static CompletableFuture<Void> pipeline(Socket raw, int frames, BooleanSupplier beat) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("pipelining-peer").start(() -> {
            try {
                DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(raw.getOutputStream(), 64 * KIB));
                byte[] body = new byte[FRAME];
                for (int i = 0; i < frames; i++) {
                    out.writeInt(FRAME);
                    out.write(body);
                }
                out.flush();
                while (beat.getAsBoolean()) {
                    out.writeInt(-1);
                    out.flush();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                }
                done.complete(null);
            } catch (IOException e) {
                done.complete(null); // the test closed the socket under the write
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 30 * SECOND;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting until %s", what).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    /** Reads {@code frames} frames from {@code connection}, each of {@link #FRAME} bytes. */
    private static void readAll(Connection connection, int frames) throws IOException {
        for (int i = 0; i < frames; i++) {
            ByteBuf frame = connection.read(20 * SECOND);
            assertThat(frame).as("frame %d of %d", i, frames).isNotNull();
            try {
                assertThat(frame.readableBytes()).isEqualTo(FRAME);
            } finally {
                frame.release();
            }
        }
    }

    @Test
    void peersWhoseFramesAreNotReadAreHeldWithinTheProcessBudgetAndAReadingConnectionIsServed() throws Exception {
        UnreadBytes budget = new UnreadBytes(256 * KIB, 16 * KIB);
        TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties().withUnreadBytes(budget),
                TcpTransport.IoMode.EVENT_LOOP);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        int peers = 8;
        int frames = 2048; // 2 MiB each: twice the connection's own mark of 1 MiB
        List<Socket> raws = new ArrayList<>();
        List<NettyConnection> accepted = new ArrayList<>();
        for (int i = 0; i < peers; i++) {
            Socket raw = track(new Socket("localhost", acceptor.port()));
            raws.add(raw);
            accepted.add((NettyConnection) track(acceptor.accept(10 * SECOND)));
            pipeline(raw, frames, () -> false);
        }
        await(() -> accepted.stream().allMatch(NettyConnection::readPaused), "every unread connection stopped reading");
        long held = accepted.stream().mapToLong(NettyConnection::inboundCharge).sum();
        // Without the budget each stops at its own mark: 8 × more than 1 MiB. With it: the budget, each one's share
        // and the one socket read (at most 64 KiB of 1 KiB frames) in which it crossed.
        long bound = budget.budgetBytes() + peers * (budget.shareBytes() + 80L * KIB);
        assertThat(held).as("charged for frames unread over %d connections", peers).isLessThanOrEqualTo(bound);
        assertThat(budget.spent()).isTrue();

        // A connection whose program reads is served while the budget stays spent: its frames all arrive.
        Socket honest = track(new Socket("localhost", acceptor.port()));
        Connection served = track(acceptor.accept(10 * SECOND));
        pipeline(honest, 1024, () -> false);
        readAll(served, 1024);

        // A connection held back by the budget reads again as its own program catches up: every frame arrives.
        readAll(accepted.get(0), frames);

        for (NettyConnection connection : accepted) {
            connection.close();
        }
        served.close();
        await(() -> budget.used() == 0, "nothing is charged to the budget once the connections are closed (used "
                + budget.used() + ")");
    }

    @Test
    void aWriterBlockedForAPeerThatThisSideStoppedReadingFailsAfterTheHeartbeatTimeout() throws Exception {
        Heartbeat heartbeat = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.MILLISECONDS.toNanos(800));
        TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties().withHeartbeat(heartbeat),
                TcpTransport.IoMode.EVENT_LOOP);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = track(new Socket());
        raw.setReceiveBufferSize(4096); // takes nothing: the writer blocks soon
        raw.connect(new InetSocketAddress("localhost", acceptor.port()), 10_000);
        NettyConnection accepted = (NettyConnection) track(acceptor.accept(10 * SECOND));
        // The peer sends past the mark and then heartbeats, which this side cannot hear once it stopped reading.
        AtomicBoolean beating = new AtomicBoolean(true);
        pipeline(raw, 2048, beating::get);
        await(accepted::readPaused, "the connection stopped reading");

        long start = System.nanoTime();
        byte[] chunk = new byte[64 * KIB];
        assertThatThrownBy(() -> {
            for (long sent = 0; sent < 1L << 30; sent += chunk.length) {
                accepted.write(accepted.alloc().buffer(chunk.length).writeBytes(chunk));
                accepted.flush();
            }
        }).isInstanceOf(IOException.class)
                .hasMessageContaining("neither side can move: the peer took nothing this side wrote for")
                .hasMessageContaining("stopped reading the peer with")
                .hasMessageContaining("(sessionj.heartbeat.timeout)");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("ms until the writer failed")
                .isGreaterThanOrEqualTo(700).isLessThan(20_000);
        beating.set(false);
    }

    @Test
    void aProgramThatReadsNothingForLongerThanTheHeartbeatTimeoutKeepsItsConnectionToAPeerThatSendsOn()
            throws Exception {
        Heartbeat heartbeat = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.MILLISECONDS.toNanos(500));
        TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties().withHeartbeat(heartbeat),
                TcpTransport.IoMode.EVENT_LOOP);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = track(new Socket("localhost", acceptor.port()));
        NettyConnection accepted = (NettyConnection) track(acceptor.accept(10 * SECOND));
        AtomicBoolean beating = new AtomicBoolean(true);
        pipeline(raw, 2048, beating::get);
        await(accepted::readPaused, "the connection stopped reading");
        // Four heartbeat timeouts in which this side reads nothing: the peer cannot be heard, which is not its
        // silence. Before, the connection failed after one: "no data and no heartbeat from the peer".
        long until = System.nanoTime() + 4 * heartbeat.timeoutNanos();
        while (System.nanoTime() < until) {
            LockSupport.parkNanos(until - System.nanoTime());
        }
        readAll(accepted, 2048);
        assertThat(accepted.isClosed()).isFalse();
        beating.set(false);
    }
}
