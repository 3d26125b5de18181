package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.transport.shm.session.TestProtocols.WaitClient;
import org.sessionj.transport.shm.session.TestProtocols.WaitServer;

/**
 * One JVM holds 100,000 concurrent idle in-JVM sessions, each requester blocked in a receive on its
 * own virtual thread (the module's tests run with -Xmx1g). Prints the heap used per session.
 */
class IdleSessionsScaleTest {
    private static final int SESSIONS = Integer.getInteger("sessionj.scale.sessions", 100_000);

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void holdsAHundredThousandIdleSessionsOnVirtualThreads() throws Exception {
        long before = usedHeapAfterGc();
        AtomicInteger completed = new AtomicInteger();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        List<SJSocket> accepted = new ArrayList<>(SESSIONS);
        List<Thread> requesters = new ArrayList<>(SESSIONS);
        try (SJServerSocket server = SJServerSocket.create(WaitServer.class, 0)) {
            SJService service = SJService.create(WaitClient.class, "localhost", server.port());
            for (int i = 0; i < SESSIONS; i++) {
                requesters.add(Thread.ofVirtual().start(() -> {
                    try (SJSocket s = service.request()) {
                        if (s.receiveInt() == 42) {
                            completed.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        firstFailure.compareAndSet(null, t);
                    }
                }));
                accepted.add(server.accept());
            }
            // Every requester now waits in receiveInt: all sessions are open and idle at once.
            long during = usedHeapAfterGc();
            System.out.printf("%d idle in-JVM sessions (both ends, a parked virtual thread each): %.0f bytes per session%n",
                    SESSIONS, (during - before) / (double) SESSIONS);
            assertThat(completed.get()).isZero();
            assertThat(firstFailure.get()).isNull();
            for (SJSocket s : accepted) {
                s.send(42);
                s.close();
            }
            for (Thread t : requesters) {
                t.join(TimeUnit.SECONDS.toMillis(60));
            }
        }
        assertThat(firstFailure.get()).isNull();
        assertThat(completed.get()).isEqualTo(SESSIONS);
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
