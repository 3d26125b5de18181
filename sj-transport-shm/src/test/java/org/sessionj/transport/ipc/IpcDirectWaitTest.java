package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.shm.BlockedThreads;

/**
 * Readers on platform threads sleep on their connection's own socket ({@link DirectWait}), woken by
 * the kernel, not through the doorbell thread; virtual threads and listeners still use the doorbell
 * thread, and a connection may pass from one to the other.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IpcDirectWaitTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @TempDir
    Path sockets;

    /** [0] the requester's end, [1] the accepter's; readers always sleep ({@code spins} and {@code yields} 0). */
    private Connection[] pair() throws IOException {
        IpcTransport transport = new IpcTransport(IpcSettings.fromSystemProperties().withSocketDirectory(sockets)
                .withSpins(0).withYields(0).withSpinMicros(0));
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        return new Connection[] {requester, accepter};
    }

    private static void echo(Connection end, int rounds) throws IOException {
        for (int i = 0; i < rounds; i++) {
            ByteBuf ping = end.read(30 * SECOND);
            if (ping == null) {
                throw new IOException("no ping " + i + " within 30 s");
            }
            end.write(ping);
        }
    }

    private static void ping(Connection end, int from, int rounds) throws IOException {
        for (int i = from; i < from + rounds; i++) {
            end.write(end.alloc().buffer(4).writeInt(i));
            ByteBuf pong = end.read(30 * SECOND);
            assertThat(pong).as("pong %d within the timeout", i).isNotNull();
            assertThat(pong.readInt()).isEqualTo(i);
            pong.release();
        }
    }

    @Test
    void platformThreadReadersThatAlwaysSleepAreWokenWithoutTheDoorbellThread() throws Exception {
        Connection[] ends = pair();
        int rounds = 3_000;
        Thread echo = Thread.ofPlatform().start(() -> {
            try {
                echo(ends[1], rounds + 1);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        ping(ends[0], -1, 1); // both ends have slept once: their selectors are open
        long servedBefore = Doorbells.served();
        ping(ends[0], 0, rounds);
        echo.join(TimeUnit.SECONDS.toMillis(30));
        // Heartbeats may drain a socket meanwhile (once per interval); a doorbell thread in the path would serve thousands.
        assertThat(Doorbells.served() - servedBefore).as("bells the doorbell thread served for %d round trips", rounds)
                .isLessThan(20);
    }

    @Test
    void aConnectionPassesBetweenPlatformAndVirtualThreadReadersWithoutLosingAWakeUp() throws Exception {
        Connection[] ends = pair();
        for (int round = 0; round < 6; round++) {
            boolean virtualEcho = round % 2 == 0;
            boolean virtualPinger = round % 3 == 0;
            int from = round * 500;
            Thread echo = (virtualEcho ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
                try {
                    echo(ends[1], 500);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            CompletableFuture<Void> pinger = new CompletableFuture<>();
            (virtualPinger ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
                try {
                    ping(ends[0], from, 500);
                    pinger.complete(null);
                } catch (Throwable e) {
                    pinger.completeExceptionally(e);
                }
            });
            pinger.get(60, TimeUnit.SECONDS);
            echo.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(echo.isAlive()).isFalse();
        }
    }

    @Test
    void anInterruptEndsADirectWaitWithoutClosingTheConnection() throws Exception {
        Connection[] ends = pair();
        CountDownLatch reading = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread reader = Thread.ofPlatform().start(() -> {
            reading.countDown();
            try {
                ByteBuf unexpected = ends[1].read(-1);
                unexpected.release();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        reading.await();
        BlockedThreads.awaitSelecting(reader, DirectWait.class);
        reader.interrupt();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedIOException.class);
        ends[0].write(frame(ends[0], "still there"));
        assertThat(text(ends[1].read(10 * SECOND))).isEqualTo("still there");
    }

    @Test
    void aTimedDirectWaitReturnsNullAndAFrameAfterItIsStillRead() throws Exception {
        Connection[] ends = pair();
        long start = System.nanoTime();
        assertThat(ends[1].read(TimeUnit.MILLISECONDS.toNanos(30))).isNull();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(30));
        ends[0].write(frame(ends[0], "late"));
        assertThat(text(ends[1].read(10 * SECOND))).isEqualTo("late");
    }

    @Test
    void aListenerSetAfterDirectWaitsStillRuns() throws Exception {
        Connection[] ends = pair();
        ends[0].write(frame(ends[0], "first"));
        assertThat(text(ends[1].read(10 * SECOND))).isEqualTo("first"); // a direct wait on the accepter's end
        CountDownLatch ran = new CountDownLatch(1);
        ends[1].readinessListener(ran::countDown);
        ends[0].write(frame(ends[0], "second"));
        assertThat(ran.await(10, TimeUnit.SECONDS)).as("the doorbell thread ran the listener").isTrue();
        assertThat(text(ends[1].read(10 * SECOND))).isEqualTo("second");
    }

    @Test
    void theClosingOfTheLocalEndWakesADirectWaitAndWritesAfterThePeersCloseFail() throws Exception {
        Connection[] ends = pair();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        CountDownLatch reading = new CountDownLatch(1);
        Thread reader = Thread.ofPlatform().start(() -> {
            reading.countDown();
            try {
                ends[1].read(-1).release();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        reading.await();
        BlockedThreads.awaitSelecting(reader, DirectWait.class);
        ends[1].close();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> ends[0].read(10 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("closed by the peer");
    }

    @Test
    void spinningThatFindsNothingBacksOffToNoneAndAFrameFoundWhileSpinningRestoresIt() throws Exception {
        IpcTransport transport = new IpcTransport(IpcSettings.fromSystemProperties().withSocketDirectory(sockets)
                .withSpins(1_000_000).withYields(20).withCpus(2)); // a spell long enough for the writer below to land in it
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        IpcConnection accepter = (IpcConnection) track(acceptor.accept(10 * SECOND));
        assertThat(accepter.inbound().spinBudget()).isEqualTo(1_000_000);
        assertThat(accepter.inbound().yieldBudget()).as("with two CPUs a reader never yields").isZero();
        for (int i = 0; i < 25; i++) {
            assertThat(accepter.read(TimeUnit.MILLISECONDS.toNanos(1))).isNull();
        }
        assertThat(accepter.inbound().spinBudget()).as("halved by every spell that found nothing").isZero();
        // Every 64th read spins a whole spell again; one that finds a frame restores the budget.
        assertThat(aProbeFindingAFrameRestores(requester, accepter, () -> accepter.inbound().spinBudget()))
                .as("a probing spell that found a frame restored the budget").isTrue();
    }

    @Test
    void yieldingThatFindsNothingBacksOffToNoneAndAFrameFoundWhileYieldingRestoresIt() throws Exception {
        IpcTransport transport = new IpcTransport(IpcSettings.fromSystemProperties().withSocketDirectory(sockets)
                .withSpins(200).withYields(1_000_000).withCpus(1)); // a spell of yields long enough for the writer
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        IpcConnection accepter = (IpcConnection) track(acceptor.accept(10 * SECOND));
        assertThat(accepter.inbound().yieldBudget()).isEqualTo(1_000_000);
        assertThat(accepter.inbound().spinBudget()).as("on one CPU a reader never spins").isZero();
        for (int i = 0; i < 25; i++) {
            assertThat(accepter.read(TimeUnit.MILLISECONDS.toNanos(1))).isNull();
        }
        assertThat(accepter.inbound().yieldBudget()).as("halved by every spell that found nothing").isZero();
        assertThat(aProbeFindingAFrameRestores(requester, accepter, () -> accepter.inbound().yieldBudget()))
                .as("a probing spell of yields that found a frame restored the budget").isTrue();
    }

    @Test
    void aReadEndsAtItsTimeoutWhateverItsSpellsOfSpinsAndYields() throws Exception {
        // Budgets no spell could finish: before the spells looked at the read's deadline, a read of 1 ms
        // spun or yielded through all of them (minutes on a busy machine), and this test hit its timeout.
        for (IpcSettings settings : List.of(
                IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withSpins(Integer.MAX_VALUE).withCpus(2),
                IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withYields(Integer.MAX_VALUE).withCpus(1))) {
            IpcTransport transport = new IpcTransport(settings);
            ConnectionAcceptor acceptor = track(transport.listen(0));
            Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
            IpcConnection accepter = (IpcConnection) track(acceptor.accept(10 * SECOND));
            assertThat(accepter.read(TimeUnit.MILLISECONDS.toNanos(1))).as("nothing was written").isNull();
            requester.write(frame(requester, "later"));
            assertThat(text(accepter.read(10 * SECOND))).as("a frame still arrives").isEqualTo("later");
        }
    }

    /**
     * Writes one frame at a time, each 1 ms after the reader starts waiting (a delay, not a
     * synchronisation: the write is meant to land inside the reader's spell, and up to 64 tries allow
     * for the ones that do not), until {@code budget} is back at its full 1,000,000.
     */
    private static boolean aProbeFindingAFrameRestores(Connection requester, IpcConnection accepter,
                                                       java.util.function.IntSupplier budget) throws Exception {
        for (int i = 0; i < 64; i++) {
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(1);
                    requester.write(frame(requester, "now"));
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(text(accepter.read(10 * SECOND))).isEqualTo("now");
            writer.join();
            if (budget.getAsInt() == 1_000_000) {
                return true;
            }
        }
        return false;
    }
}
