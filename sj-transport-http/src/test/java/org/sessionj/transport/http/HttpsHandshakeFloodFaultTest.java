package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.KeyMaterial;
import org.sessionj.transport.tls.TlsConfig;
import org.sessionj.transport.tls.TlsContexts;

/**
 * Does a flood of TLS handshakes against an HTTPS server stall what is established on it? While
 * {@code faults.handshakeFloodThreads} (8) threads open TLS connections one after another to the same port,
 * finish a full handshake, send one request, read the status and close, for
 * {@code faults.handshakeFloodMillis} (10 s): an established https connection (direct mode) runs round
 * trips, and a kept-alive HTTPS client of the relay sends requests. Each prints its round trips' median,
 * 99th percentile and worst before and during the flood ({@code FAULTS} lines, docs/reliability.md). The
 * flood runs in a JVM of its own ({@link HandshakeFlooder}), as a flood from outside would, unless
 * {@code faults.handshakeFloodInJvm} is {@code true} (the fifteenth session's figures were taken so).
 *
 * <p>Bound: {@code faults.handshakeFloodBoundMillis} (the worst round trip during the flood, default 5,000):
 * a safety net against a stall, not a performance target; the figures are the result. Runs with
 * {@code -Pfaults} only.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HttpsHandshakeFloodFaultTest {
    private static final int THREADS = Integer.getInteger("faults.handshakeFloodThreads", 8);
    private static final long FLOOD_MILLIS = Long.getLong("faults.handshakeFloodMillis", 10_000);
    private static final long BOUND = Long.getLong("faults.handshakeFloodBoundMillis", 5_000);
    private static final KeyMaterial KEY = Certificates.selfSigned("localhost", Certificates.localhostNames());
    private static final long SECONDS_30 = TimeUnit.SECONDS.toNanos(30);
    private static final boolean IN_JVM = Boolean.getBoolean("faults.handshakeFloodInJvm");

    /** The JVM's first TLS handshakes outside the figures. */
    @BeforeAll
    static void warmUp() throws Exception {
        HttpsTransport https = transport();
        try (ConnectionAcceptor acceptor = https.listen(0);
                Connection requester = https.connect("localhost", acceptor.port(), TimeUnit.SECONDS.toNanos(150));
                Connection accepter = acceptor.accept(TimeUnit.SECONDS.toNanos(150))) {
            assertThat(accepter).isNotNull();
        }
    }

    private static HttpsTransport transport() {
        return new HttpsTransport(TestConfigs.of(), TlsConfig.builder().keyMaterial(KEY).trust(KEY.certificate()).build());
    }

    @Test
    void aHandshakeFloodDoesNotStallAnEstablishedHttpsConnection() throws Exception {
        HttpsTransport https = transport();
        try (ConnectionAcceptor acceptor = https.listen(0);
                Connection requester = https.connect("localhost", acceptor.port(), SECONDS_30);
                Connection accepter = acceptor.accept(SECONDS_30)) {
            CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
                try {
                    while (true) {
                        ByteBuf frame = accepter.read(SECONDS_30);
                        if (frame == null) {
                            return;
                        }
                        int n = frame.readInt();
                        frame.release();
                        accepter.write(accepter.alloc().buffer(4).writeInt(n + 1));
                        accepter.flush();
                    }
                } catch (IOException e) {
                    // the requester closed
                }
            });
            Round round = i -> {
                requester.write(requester.alloc().buffer(4).writeInt(i));
                requester.flush();
                ByteBuf answer = requester.read(SECONDS_30);
                try {
                    assertThat(answer.readInt()).isEqualTo(i + 1);
                } finally {
                    answer.release();
                }
            };
            flood("https direct: an established connection's", acceptor.port(), round);
            requester.close();
            echo.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aHandshakeFloodDoesNotStallAKeptAliveClientOfTheRelay() throws Exception {
        try (HttpRelay relay = HttpRelay.start(new InetSocketAddress("localhost", 0),
                TlsContexts.server(TlsConfig.builder().keyMaterial(KEY).build()), RelayLimits.defaults());
                SSLSocket client = connect(relay.port())) {
            OutputStream out = client.getOutputStream();
            InputStream in = client.getInputStream();
            byte[] request = ("GET " + Wire.TARGET + "?name=nobody:1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            Round round = i -> {
                out.write(request);
                out.flush();
                assertThat(readResponse(in)).startsWith("HTTP/1.1 404");
            };
            flood("the relay over https: a kept-alive client's requests", relay.port(), round);
        }
    }

    /** One round trip on what is established. */
    private interface Round {
        void run(int i) throws Exception;
    }

    /** Rounds before the flood, then during it; prints both and checks the bound. */
    private static void flood(String what, int port, Round round) throws Exception {
        long[] before = rounds(round, 1_000, null);
        java.util.concurrent.CompletableFuture<int[]> flood = IN_JVM
                ? java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        AtomicInteger[] counts = HandshakeFlooder.run(port, THREADS, FLOOD_MILLIS, () -> { });
                        return new int[] {counts[0].get(), counts[1].get()};
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, r -> Thread.ofPlatform().daemon().start(r))
                : floodFromAnotherJvm(port);
        long start = System.nanoTime();
        long[] during = rounds(round, Integer.MAX_VALUE, () -> flood.isDone()
                || TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= FLOOD_MILLIS);
        int[] counts = flood.get(FLOOD_MILLIS + 120_000, TimeUnit.MILLISECONDS);
        AtomicInteger handshakes = new AtomicInteger(counts[0]);
        AtomicInteger failures = new AtomicInteger(counts[1]);
        System.out.printf("FAULTS %s round trips under a TLS handshake flood (%d threads %s, %d ms): %d handshakes (%d"
                + " failed); before: %s; during: %s%n", what, THREADS, IN_JVM ? "in this JVM" : "in another JVM",
                FLOOD_MILLIS, handshakes.get(), failures.get(), summary(before), summary(during));
        assertThat(handshakes.get()).as("handshakes the flood completed").isPositive();
        assertThat(TimeUnit.NANOSECONDS.toMillis(during[during.length - 1]))
                .as("the worst round trip during the flood (ms)").isLessThan(BOUND);
    }

    /**
     * Starts {@link HandshakeFlooder} in a JVM of its own on this test's class path and returns once its threads
     * start; the future has its handshakes done and failed once it ends.
     */
    private static java.util.concurrent.CompletableFuture<int[]> floodFromAnotherJvm(int port) throws IOException {
        String javaCommand = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(javaCommand, "-cp", System.getProperty("java.class.path"),
                HandshakeFlooder.class.getName(), Integer.toString(port), Integer.toString(THREADS),
                Long.toString(FLOOD_MILLIS)).redirectErrorStream(true).start();
        java.io.BufferedReader out = new java.io.BufferedReader(
                new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder all = new StringBuilder();
        String first;
        while ((first = out.readLine()) != null && !first.equals("STARTED")) {
            all.append(first).append('\n'); // the JVM's own warnings, if any
        }
        if (first == null) {
            throw new IOException("the flooding JVM ended before it started: " + all);
        }
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (out) {
                String line;
                while ((line = out.readLine()) != null) {
                    all.append(line).append('\n');
                    if (line.startsWith("HANDSHAKES ")) {
                        String[] parts = line.split(" ");
                        process.waitFor(60, TimeUnit.SECONDS);
                        return new int[] {Integer.parseInt(parts[1]), Integer.parseInt(parts[2])};
                    }
                }
                throw new IllegalStateException("the flooding JVM ended without its count: " + all);
            } catch (IOException | InterruptedException e) {
                process.destroyForcibly();
                throw new IllegalStateException(e);
            }
        }, r -> Thread.ofPlatform().daemon().start(r));
    }

    private static SSLSocket connect(int port) throws Exception {
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port);
        tls.setSoTimeout(30_000);
        tls.startHandshake();
        return tls;
    }

    /** One HTTP/1.1 response with a Content-Length body: its head and body as text. */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head);
            }
            head.append((char) b);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return head + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
    }

    /** Round trips until {@code count} or {@code stop}; their times in nanoseconds, sorted. */
    private static long[] rounds(Round round, int count, BooleanSupplier stop) throws Exception {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < count && (stop == null || !stop.getAsBoolean()); i++) {
            long t0 = System.nanoTime();
            round.run(i);
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
