package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;

/**
 * A peer JVM that dies (kill -9) or freezes (SIGSTOP) in the middle of a session, on tcp, tls and
 * ipc: this JVM, blocked in a receive, gets an {@link SJIOException} within a bound — at once for a
 * death (the kernel closes the peer's sockets), within the heartbeat timeout for a freeze (nothing
 * closes: only runtime heartbeats, answered by the peer's runtime, can tell) — and afterwards holds
 * no more threads, file descriptors, direct memory or ipc files than before the session. A new peer
 * on the same ipc directories then cleans what the dead one left there.
 *
 * <p>Bounds: {@code faults.deathBoundMillis} (default 5000) and {@code faults.freezeBoundMillis}
 * (default 30000, above the runtime's documented default heartbeat timeout).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PeerFaultTest {
    private static final long DEATH_BOUND = Long.getLong("faults.deathBoundMillis", 5_000);
    private static final long FREEZE_BOUND = Long.getLong("faults.freezeBoundMillis", 30_000);

    /** The transports of both ends for {@code transport}: ipc sessions are set up over tcp. */
    static String[] config(String transport) {
        return switch (transport) {
            case "ipc" -> new String[] {"ipc,tcp", "sessionj.sessionTransports", "ipc"};
            default -> new String[] {transport};
        };
    }

    @ParameterizedTest(name = "{1} of the peer over {0}")
    @CsvSource({"tcp, KILL", "tls, KILL", "ipc, KILL", "tcp, STOP", "tls, STOP", "ipc, STOP"})
    void aPeerThatDiesOrFreezesMidSessionIsDetectedInBoundedTimeAndLeavesNothingBehind(String transport, String fault)
            throws Exception {
        if (transport.equals("tls")) {
            FaultSupport.configureTls();
        }
        String[] config = config(transport);
        List<String> peerOptions = config.length > 1 ? List.of("-D" + config[1] + "=" + config[2]) : List.of();
        SJRuntime runtime = FaultSupport.runtime(config[0], java.util.Arrays.copyOfRange(config, 1, config.length));
        // Warm up this JVM's transport (event loops, buffer pools) with one complete session first.
        try (FaultSupport.Peer warm = FaultSupport.start(peerOptions, config[0], "ping", "1")) {
            SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", warm.port());
            try (SJSocket s = service.request()) {
                s.send(1);
                assertThat(s.receiveInt()).isEqualTo(2);
            }
            warm.next("SERVED");
        }
        FaultSupport.Snapshot before = FaultSupport.Snapshot.take();

        try (FaultSupport.Peer peer = FaultSupport.start(peerOptions, config[0], "waiting")) {
            SJService service = runtime.service(FaultProtocols.Waiting.class, "localhost", peer.port());
            SJSocket session = service.request();
            assertThat(session.receiveInt()).isEqualTo(1);
            session.send(2);
            long bound = fault.equals("KILL") ? DEATH_BOUND : FREEZE_BOUND;
            // Another thread injects the fault once the peer holds the session (and this thread is blocked
            // in the receive below, which flushes the 2 first); if the receive has not failed within the
            // bound, it kills the peer so the receive ends and the test can say so.
            AtomicLong faultAt = new AtomicLong();
            AtomicBoolean detected = new AtomicBoolean();
            CompletableFuture<Void> injector = CompletableFuture.runAsync(() -> {
                try {
                    assertThat(peer.next("READY ").strip()).isEqualTo(transport);
                    Thread.sleep(200);
                    faultAt.set(System.nanoTime());
                    if (fault.equals("KILL")) {
                        peer.kill();
                    } else {
                        peer.signal("STOP");
                    }
                    long deadline = faultAt.get() + TimeUnit.MILLISECONDS.toNanos(bound);
                    while (!detected.get() && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    if (!detected.get()) {
                        peer.kill();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Throwable failure = null;
            try {
                session.receiveInt();
            } catch (RuntimeException e) {
                failure = e;
            }
            long millis = faultAt.get() == 0 ? -1 : FaultSupport.millisSince(faultAt.get());
            detected.set(true);
            injector.get(FaultSupport.PATIENCE_SECONDS, TimeUnit.SECONDS);
            System.out.printf("FAULTS %s %s of the peer: the blocked receive failed after %d ms: %s%n", transport,
                    fault, millis, failure);
            assertThat(failure).as("the receive fails").isInstanceOf(SJIOException.class);
            assertThat(millis).as("%s of the peer over %s detected within %d ms", fault, transport, bound)
                    .isBetween(0L, bound);
            session.close();
            peer.kill();
        }
        if (transport.equals("ipc")) {
            // A new ipc peer on the same directories cleans what the killed one left behind.
            try (FaultSupport.Peer next = FaultSupport.start(peerOptions, config[0], "ping", "1")) {
                try (SJSocket s = runtime.service(FaultProtocols.Ping.class, "localhost", next.port()).request()) {
                    s.send(41);
                    assertThat(s.receiveInt()).isEqualTo(42);
                }
                next.next("SERVED");
                assertThat(next.process.waitFor(FaultSupport.PATIENCE_SECONDS, TimeUnit.SECONDS)).isTrue();
            }
        }
        FaultSupport.Snapshot.take().assertNothingLeakedSince(before, 8);
    }
}
