package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;

/**
 * A peer JVM frozen (SIGSTOP) while this JVM sends to it, with no send timeout set: the blocked send
 * fails within the freeze bound with an {@link SJIOException} that names the session, the pending
 * action and why (the peer sent nothing, not even a heartbeat); another session of the same runtime,
 * to another peer, goes on meanwhile. On tcp (both I/O modes: the suite runs twice), tls and ipc.
 *
 * <p>Bound: {@code faults.freezeBoundMillis} (default 30000, as in {@link PeerFaultTest}).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FrozenWriteFaultTest {
    private static final long FREEZE_BOUND = Long.getLong("faults.freezeBoundMillis", 30_000);

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "tls", "ipc"})
    void aSendBlockedOnAFrozenPeerFailsWithoutASendTimeoutAndOtherSessionsGoOn(String transport) throws Exception {
        if (transport.equals("tls")) {
            FaultSupport.configureTls();
        }
        String[] config = PeerFaultTest.config(transport);
        List<String> peerOptions = config.length > 1 ? List.of("-D" + config[1] + "=" + config[2]) : List.of();
        SJRuntime runtime = FaultSupport.runtime(config[0], java.util.Arrays.copyOfRange(config, 1, config.length));
        try (FaultSupport.Peer frozen = FaultSupport.start(peerOptions, config[0], "flooding");
                FaultSupport.Peer live = FaultSupport.start(peerOptions, config[0], "serve")) {
            SJService other = runtime.service(FaultProtocols.Ping.class, "localhost", live.port());
            ping(other, 0);
            SJSocket session = runtime.service(FaultProtocols.Flooding.class, "localhost", frozen.port()).request();
            assertThat(frozen.next("READY ").strip()).isEqualTo(transport);
            FaultSupport.Snapshot before = FaultSupport.Snapshot.take();
            frozen.signal("STOP");
            long frozenAt = System.nanoTime();

            // The other session's rounds while this thread's send waits: each must be served.
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong rounds = new AtomicLong();
            AtomicLong slowest = new AtomicLong();
            CompletableFuture<Void> beside = CompletableFuture.runAsync(() -> {
                for (int i = 1; writing.get(); i++) {
                    long start = System.nanoTime();
                    ping(other, i);
                    slowest.accumulateAndGet(FaultSupport.millisSince(start), Math::max);
                    rounds.incrementAndGet();
                }
            });

            byte[] chunk = new byte[64 * 1024];
            long sent = 0;
            Throwable failure = null;
            long deadline = frozenAt + TimeUnit.MILLISECONDS.toNanos(FREEZE_BOUND + 30_000);
            while (failure == null && System.nanoTime() < deadline) {
                try {
                    session.outwhile(true);
                    session.send(chunk);
                    sent += chunk.length;
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
            long millis = FaultSupport.millisSince(frozenAt);
            writing.set(false);
            beside.get(FaultSupport.PATIENCE_SECONDS, TimeUnit.SECONDS);
            System.out.printf("FAULTS %s STOP of the peer under a blocked send (no send timeout): %d KiB sent, failed"
                    + " after %d ms: %s; %d round trips of another session meanwhile, slowest %d ms%n", transport,
                    sent >> 10, millis, failure, rounds.get(), slowest.get());
            assertThat(failure).as("the blocked send fails").isInstanceOf(SJIOException.class);
            assertThat(failure.getMessage()).as("names the session, the pending action and why")
                    .contains("while this side of the session", "sent, before", "frozen or gone");
            assertThat(millis).as("detected within %d ms", FREEZE_BOUND).isBetween(0L, FREEZE_BOUND);
            assertThat(rounds.get()).as("the other session went on meanwhile").isPositive();
            session.close();
            frozen.kill();
            ping(other, -1);
            FaultSupport.Snapshot.take().assertNothingLeakedSince(before, 8);
        }
    }

    private static void ping(SJService service, int i) {
        try (SJSocket s = service.request()) {
            s.send(i);
            assertThat(s.receiveInt()).isEqualTo(i + 1);
        }
    }
}
