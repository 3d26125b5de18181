package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.Peers.Threads;
import org.sessionj.transport.shm.session.TestProtocols.PingClient;
import org.sessionj.transport.shm.session.TestProtocols.PingServer;

/**
 * The in-JVM round trip that {@code PingPongBenchmark} times ({@code outwhile(true)}, {@code send(int)},
 * {@code receiveInt()} against an echo), checked for what the benchmark cannot see: every reply answers
 * its own request, on platform and virtual threads, with and without a receive timeout (a timed wait
 * yields on a virtual thread before it parks), and a round trip allocates nothing once warm.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InJvmRoundTripTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static SJRuntime runtime(boolean receiveTimeout) {
        SJRuntimeConfig.Builder config = SJRuntimeConfig.builder().transports("shm");
        if (receiveTimeout) {
            config.defaultTimeout(Duration.ofSeconds(30));
        }
        return SJRuntime.create(config.build());
    }

    @ParameterizedTest
    @CsvSource({"PLATFORM, false", "PLATFORM, true", "VIRTUAL, false", "VIRTUAL, true"})
    void everyReplyAnswersItsOwnRequest(Threads threads, boolean receiveTimeout) throws Exception {
        SJRuntime runtime = runtime(receiveTimeout);
        // Fewer on platform threads: each of their waits may be an OS wake-up, slow on a loaded machine.
        int rounds = threads == Threads.VIRTUAL ? 20_000 : 2_000;
        try (SJServerSocket server = runtime.serverSocket(PingServer.class, 0)) {
            FutureTask<Integer> echo = Peers.start(threads, () -> {
                int answered = 0;
                try (SJSocket s = server.accept()) {
                    while (s.inwhile()) {
                        s.send(s.receiveInt() + 1);
                        answered++;
                    }
                }
                return answered;
            });
            FutureTask<Integer> requester = Peers.start(threads, () -> {
                try (SJSocket s = runtime.service(PingClient.class, "localhost", server.port()).request()) {
                    for (int i = 0; i < rounds; i++) {
                        s.outwhile(true);
                        s.send(i);
                        int reply = s.receiveInt();
                        if (reply != i + 1) {
                            throw new AssertionError("round " + i + " got the reply " + reply);
                        }
                    }
                    s.outwhile(false);
                }
                return rounds;
            });
            assertThat(Peers.join(requester)).isEqualTo(rounds);
            assertThat(Peers.join(echo)).isEqualTo(rounds);
        }
    }

    @Test
    void aRoundTripAllocatesNothingOnceWarm() throws Exception {
        SJRuntime runtime = runtime(false);
        try (SJServerSocket server = runtime.serverSocket(PingServer.class, 0)) {
            CompletableFuture<SJSocket> accepted = CompletableFuture.supplyAsync(server::accept);
            SJSocket requester = runtime.service(PingClient.class, "localhost", server.port()).request();
            SJSocket accepter = accepted.get(10, TimeUnit.SECONDS);
            // One thread drives both ends, so that its allocation counter sees the whole path (both
            // ends' encoding, frames, queues and monitor) and no wake-up is involved.
            roundTrips(requester, accepter, 50_000); // warm up: JIT, the spare frames, the queues' slots
            long before = THREADS.getCurrentThreadAllocatedBytes();
            int rounds = 200_000;
            roundTrips(requester, accepter, rounds);
            long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
            assertThat(allocated / (double) rounds).as("bytes allocated per round trip").isLessThan(1.0);
            requester.outwhile(false);
            requester.close();
            assertThat(accepter.inwhile()).isFalse();
            accepter.close();
        }
    }

    private static void roundTrips(SJSocket requester, SJSocket accepter, int rounds) {
        for (int i = 0; i < rounds; i++) {
            requester.outwhile(true);
            requester.send(i);
            // Plain checks: an assertion object per round would be the allocation measured.
            if (!accepter.inwhile()) {
                throw new AssertionError("round " + i + " ended the accepter's loop");
            }
            accepter.send(accepter.receiveInt() + 1);
            if (requester.receiveInt() != i + 1) {
                throw new AssertionError("round " + i + " got a reply to another request");
            }
        }
    }
}
