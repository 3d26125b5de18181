package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.transport.netty.internal.UnsentBytes;

/**
 * Peers that ask for large messages and never read them (hostile H2): a writer queues its whole frame before it
 * waits for the peer, so each such peer held a frame for as long as it liked (heartbeats keep the heartbeat timeout
 * away, the send timeout is off by default), and 16 of them filled a 128 MiB heap. A budget the test sets for the
 * bytes of all waiting writers holds: the writer that has waited longest is given up for a newer one, its send
 * failing with the reason, over tcp with event loops and with blocking sockets (tls shares the event-loop path).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpUnsentBytesTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int MIB = 1 << 20;
    /** Three times what the kernel buffers for a peer that reads nothing (within sessionj.tcp.maxFrameBytes). */
    private static final int FRAME = 12 * MIB;

    /** A peer that connects with a small receive buffer and never reads. */
    private void deafPeer(int port) throws IOException {
        Socket raw = track(new Socket());
        raw.setReceiveBufferSize(4096);
        raw.connect(new InetSocketAddress("localhost", port), 10_000);
    }

    /** Writes a frame of {@code bytes} and flushes, on a thread of its own; the failure, if any. */
    private static CompletableFuture<Void> send(Connection c, int bytes) {
        return CompletableFuture.runAsync(() -> {
            try {
                c.write(c.alloc().heapBuffer(bytes).writerIndex(bytes));
                c.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, r -> Thread.ofPlatform().daemon().start(r));
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 20 * SECOND;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @ParameterizedTest
    @EnumSource(TcpTransport.IoMode.class)
    void writersForPeersThatTakeNothingHoldNoMoreThanTheBudgetTheLongestWaitingGivenUp(TcpTransport.IoMode mode)
            throws Exception {
        // A waiting writer is charged what it holds when it starts waiting: on the event loops its frame less what
        // the kernel took already (at most its send buffer, tcp_wmem's 4 MiB, and the deaf peer's few KiB), so
        // between 8 and 12 MiB here. With 4 MiB frames and a 6 MiB budget that was 1.2 to 4 MiB (the kernel took
        // 2.7-2.9 MiB for such a peer here), so whether the second writer gave the first up depended on how far
        // the event loop had got; and the sum read off the event loop could count a frame twice, 8 MiB, over the
        // budget by itself (NettyConnection.heldBytes).
        UnsentBytes budget = new UnsentBytes(14L * MIB); // one frame fits, two do not
        TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties().withUnsentBytes(budget), mode);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        deafPeer(acceptor.port());
        Connection first = track(acceptor.accept(10 * SECOND));
        deafPeer(acceptor.port());
        Connection second = track(acceptor.accept(10 * SECOND));

        CompletableFuture<Void> firstSend = send(first, FRAME);
        await(() -> budget.used() > 0, "the first writer waiting for its peer");
        assertThat(firstSend).as("its peer takes nothing").isNotDone();
        CompletableFuture<Void> secondSend = send(second, FRAME);

        Throwable failure = firstSend.handle((ok, e) -> e).get(20, TimeUnit.SECONDS);
        assertThat(failure).as("the longest waiting writer is given up").isNotNull();
        assertThat(failure).hasRootCauseInstanceOf(IOException.class);
        assertThat(failure.getCause().getCause()).isInstanceOf(IOException.class)
                .hasMessageContaining("gave up writing to a peer that takes nothing: this side held")
                .hasMessageContaining("within the process's budget of 14680064 bytes for them (sessionj.tcp.unsentBytes;")
                .hasMessageContaining("tcp ");
        await(() -> budget.used() > 0 && budget.used() <= budget.budgetBytes(), "only the second writer's bytes held");
        assertThat(secondSend).as("the newer writer still waits for its peer").isNotDone();

        second.close();
        assertThat(secondSend.handle((ok, e) -> e).get(20, TimeUnit.SECONDS)).as("closed under its wait").isNotNull();
        await(() -> budget.used() == 0, "nothing held once the writers stopped waiting");
    }
}
