package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.transport.tcp.SessionProtocols;

/**
 * Does one client's flood of TLS handshakes stall other sessions' messages? An established tls session
 * runs round trips on a server while {@code faults.handshakeFloodThreads} (8) threads each open TLS
 * connections to the same server socket one after another, finish a full handshake (a key exchange and
 * a signature on the server's event loops, where the established session's channel lives too), read the
 * greeting and close, for {@code faults.handshakeFloodMillis} (10 s). It prints the round trips' median,
 * 99th percentile and worst before and during the flood ({@code FAULTS} line, docs/reliability.md).
 *
 * <p>Bound: {@code faults.handshakeFloodBoundMillis} (the worst round trip during the flood, default
 * 5,000): a safety net against a stall, not a performance target; the figures are the result.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TlsHandshakeFloodFaultTest {
    private static final int THREADS = Integer.getInteger("faults.handshakeFloodThreads", 8);
    private static final long FLOOD_MILLIS = Long.getLong("faults.handshakeFloodMillis", 10_000);
    private static final long BOUND = Long.getLong("faults.handshakeFloodBoundMillis", 5_000);

    @Test
    void aFloodOfTlsHandshakesDoesNotStallAnEstablishedSession() throws Exception {
        assumeFalse("blocking".equals(System.getProperty("sessionj.tcp.io")), "tls does not use sessionj.tcp.io");
        FaultSupport.configureTls();
        SJRuntime server = FaultSupport.runtime("tls");
        SJRuntime client = FaultSupport.runtime("tls");
        SSLContext flooder = SSLContext.getInstance("TLSv1.3");
        flooder.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        try (SJServerSocket socket = server.serverSocket(SessionProtocols.PingServer.class, 0)) {
            CompletableFuture<Integer> served = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = socket.accept()) {
                    int count = 0;
                    while (s.inwhile()) {
                        s.send(s.receiveInt() + 1);
                        count++;
                    }
                    s.send("done");
                    return count;
                }
            });
            try (SJSocket s = client.service(SessionProtocols.PingClient.class, "localhost", socket.port()).request()) {
                long[] before = rounds(s, 2_000, null);
                AtomicBoolean flooding = new AtomicBoolean(true);
                AtomicInteger handshakes = new AtomicInteger();
                AtomicInteger failures = new AtomicInteger();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    threads.add(Thread.ofPlatform().daemon().name("tls-flood-" + t).start(() -> {
                        while (flooding.get()) {
                            try (SSLSocket tls = (SSLSocket) flooder.getSocketFactory()
                                    .createSocket(InetAddress.getLoopbackAddress(), socket.port())) {
                                tls.setSoTimeout(10_000);
                                tls.startHandshake();
                                tls.getInputStream().readNBytes(4); // the greeting
                                handshakes.incrementAndGet();
                            } catch (IOException e) {
                                failures.incrementAndGet();
                            }
                        }
                    }));
                }
                long start = System.nanoTime();
                long[] during = rounds(s, Integer.MAX_VALUE, () -> FaultSupport.millisSince(start) >= FLOOD_MILLIS);
                flooding.set(false);
                for (Thread thread : threads) {
                    thread.join(TimeUnit.SECONDS.toMillis(FaultSupport.PATIENCE_SECONDS));
                }
                s.outwhile(false);
                assertThat((String) s.receive()).isEqualTo("done");
                System.out.printf("FAULTS tls handshake flood (%d threads, %d ms): %d handshakes (%d failed); an established"
                        + " session's round trips before: %s; during: %s%n", THREADS, FLOOD_MILLIS, handshakes.get(),
                        failures.get(), summary(before), summary(during));
                assertThat(handshakes.get()).as("handshakes the flood completed").isPositive();
                assertThat(TimeUnit.NANOSECONDS.toMillis(during[during.length - 1]))
                        .as("the worst round trip of the established session during the flood (ms)").isLessThan(BOUND);
            }
            assertThat(served.get(FaultSupport.PATIENCE_SECONDS, TimeUnit.SECONDS)).isPositive();
        }
    }

    /** Round trips on {@code s} until {@code count} or {@code stop}; their times in nanoseconds, sorted. */
    private static long[] rounds(SJSocket s, int count, java.util.function.BooleanSupplier stop) {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < count && (stop == null || !stop.getAsBoolean()); i++) {
            long t0 = System.nanoTime();
            s.outwhile(true);
            s.send(i);
            assertThat(s.receiveInt()).isEqualTo(i + 1);
            times.add(System.nanoTime() - t0);
        }
        long[] sorted = times.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return sorted;
    }

    private static String summary(long[] sorted) {
        return String.format("%d, median %.2f ms, p99 %.2f ms, worst %.2f ms", sorted.length,
                sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.99)] / 1e6,
                sorted[sorted.length - 1] / 1e6);
    }
}
