package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;

/**
 * The longer spin of an ipc reader ({@code sessionj.ipc.spinMicros}): only while a core is free
 * ({@link FreeCores}, the machine's run queue) and while the reader's recent frames came within its
 * bound ({@link WaitHistory}); a frame found there is read without a sleep.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IpcSpinWhileFreeTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @TempDir
    Path sockets;

    // ---- the run queue ----

    @Test
    void theRunnableCountIsTheFourthFieldBeforeItsSlash() {
        assertThat(FreeCores.running("0.52 0.58 0.59 3/512 12345\n")).isEqualTo(3);
        assertThat(FreeCores.running("31.90 28.11 21.67 41/1207 99")).isEqualTo(41);
        assertThat(FreeCores.running("0.52 0.58 0.59")).as("too few fields").isEqualTo(-1);
        assertThat(FreeCores.running("0.52 0.58 0.59 x/512 1")).isEqualTo(-1);
        assertThat(FreeCores.running("0.52 0.58 0.59 /512 1")).isEqualTo(-1);
        assertThat(FreeCores.running("0.52 0.58 0.59 512 1")).as("no slash").isEqualTo(-1);
        assertThat(FreeCores.running("")).isEqualTo(-1);
    }

    @Test
    void aCoreIsFreeWhenTheRunnableThreadsAreAtMostTheCpus() {
        assertThat(new FreeCores(() -> "0 0 0 2/100 1").free(2, 0)).isTrue();
        assertThat(new FreeCores(() -> "0 0 0 3/100 1").free(2, 0)).as("three ranks on two vCPUs").isFalse();
        assertThat(FreeCores.always().free(2, 0)).isTrue();
        assertThat(FreeCores.never().free(64, 0)).isFalse();
    }

    @Test
    void theRunQueueIsReadAtMostOncePerMillisecond() {
        AtomicInteger reads = new AtomicInteger();
        FreeCores cores = new FreeCores(() -> reads.incrementAndGet() == 1 ? "0 0 0 1/9 1" : "0 0 0 5/9 1");
        long t = 5_000_000_000L;
        assertThat(cores.free(2, t)).isTrue();
        assertThat(cores.free(2, t + FreeCores.TTL_NANOS - 1)).as("the first look still stands").isTrue();
        assertThat(reads).hasValue(1);
        assertThat(cores.free(2, t + FreeCores.TTL_NANOS)).as("looked again").isFalse();
        assertThat(reads).hasValue(2);
    }

    @Test
    void anUnreadableOrUnparsableRunQueueNeverHasAFreeCoreAndIsNotTriedAgain() {
        AtomicInteger reads = new AtomicInteger();
        FreeCores missing = new FreeCores(() -> {
            reads.incrementAndGet();
            throw new NoSuchFileException("/proc/loadavg");
        });
        assertThat(missing.free(2, 0)).isFalse();
        assertThat(missing.free(2, 10 * FreeCores.TTL_NANOS)).isFalse();
        assertThat(reads).as("not tried again").hasValue(1);
        assertThat(new FreeCores(() -> "garbage").free(2, 0)).isFalse();
    }

    @Test
    void thisMachinesRunQueueCanBeRead() {
        assumeTrue(Files.isReadable(Path.of("/proc/loadavg")));
        // Whatever the load: at least this thread is runnable, so with a million CPUs a core is free.
        assertThat(FreeCores.SYSTEM.free(1_000_000, System.nanoTime())).isTrue();
    }

    // ---- the history of waits ----

    @Test
    void longWaitsStopTheSpinAndQuickOnesBringItBack() {
        WaitHistory waits = new WaitHistory(100_000);
        assertThat(waits.spinWanted()).as("nothing seen yet").isTrue();
        waits.waited(2_000_000); // a 2 ms wait (a computation between messages)
        assertThat(waits.recent()).isEqualTo(500_000);
        assertThat(waits.spinWanted()).isFalse();
        int quick = 0;
        while (!waits.spinWanted()) {
            waits.waited(10_000);
            quick++;
        }
        assertThat(quick).as("quick waits that bring the spin back").isBetween(5, 12);
        waits.waited(-5); // a clock that went backwards counts as no wait
        assertThat(waits.recent()).isPositive();
    }

    @Test
    void aBoundOfZeroNeverSpins() {
        WaitHistory waits = new WaitHistory(0);
        assertThat(waits.spinWanted()).isFalse();
        waits.waited(0);
        assertThat(waits.spinWanted()).isFalse();
    }

    // ---- readers ----

    private IpcConnection[] pair(IpcSettings settings) throws IOException {
        IpcTransport transport = new IpcTransport(settings);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        return new IpcConnection[] {(IpcConnection) requester, (IpcConnection) accepter};
    }

    /** Settings whose reader neither spins nor yields before the longer spin, which may last 60 s. */
    private IpcSettings settings(FreeCores cores, int cpus) {
        return IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withSpins(0).withYields(0)
                .withSpinMicros(60_000_000).withCpus(cpus).withCores(cores);
    }

    /** Writes a frame 5 ms after the reader starts waiting (a delay, not a synchronisation) and reads it. */
    private static String writtenLater(IpcConnection writer, IpcConnection reader) throws Exception {
        Thread later = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(5);
                writer.write(frame(writer, "later"));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        ByteBuf frame = reader.read(30 * SECOND);
        later.join();
        return text(frame);
    }

    @Test
    void withAFreeCoreAReaderPollsOnAndFindsTheFrameWithoutSleeping() throws Exception {
        IpcConnection[] ends = pair(settings(FreeCores.always(), 2));
        assertThat(writtenLater(ends[0], ends[1])).isEqualTo("later");
        assertThat(ends[1].inbound().foundWhileFree()).isEqualTo(1);
    }

    @Test
    void onAnOversubscribedMachineAReaderSleepsAtOnce() throws Exception {
        IpcConnection[] ends = pair(settings(FreeCores.never(), 2));
        assertThat(writtenLater(ends[0], ends[1])).isEqualTo("later");
        assertThat(ends[1].inbound().foundWhileFree()).isZero();
    }

    @Test
    void onOneCpuAReaderNeverSpinsLonger() throws Exception {
        IpcConnection[] ends = pair(settings(FreeCores.always(), 1));
        assertThat(writtenLater(ends[0], ends[1])).isEqualTo("later");
        assertThat(ends[1].inbound().foundWhileFree()).isZero();
    }

    @Test
    void aReadWithATimeoutSpinsNoLongerThanItAndTheFrameStillComes() throws Exception {
        IpcConnection[] ends = pair(settings(FreeCores.always(), 2));
        long start = System.nanoTime();
        assertThat(ends[1].read(TimeUnit.MILLISECONDS.toNanos(20))).as("nothing was written").isNull();
        assertThat(System.nanoTime() - start).as("not the 60 s spin").isLessThan(30 * SECOND);
        ends[0].write(frame(ends[0], "after"));
        assertThat(text(ends[1].read(10 * SECOND))).isEqualTo("after");
    }

    @Test
    void aReaderWhoseFramesComeSlowlyStopsSpinningLonger() throws Exception {
        IpcConnection[] ends = pair(IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withSpins(0)
                .withYields(0).withSpinMicros(1_000).withCpus(2).withCores(FreeCores.always()));
        for (int i = 0; i < 3; i++) {
            Thread later = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(50); // far beyond the 1 ms spin
                    ends[0].write(frame(ends[0], "slow"));
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(text(ends[1].read(30 * SECOND))).isEqualTo("slow");
            later.join();
        }
        // Each wait was at least the writer's 50 ms: the average is past the 1 ms bound, so the next empty
        // read sleeps at once.
        assertThat(ends[1].inbound().recentWait()).as("the waits were remembered")
                .isGreaterThan(TimeUnit.MILLISECONDS.toNanos(1));
    }
}
