package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.HandshakeSlots;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.KeyMaterial;
import org.sessionj.transport.tls.TlsConfig;
import org.sessionj.transport.tls.TlsContexts;

/**
 * The HTTPS servers (the relay's, an https acceptor's) bound their TLS handshakes as the tls transport
 * does: a peer that sends bytes that are no TLS, or a ClientHello and then nothing, is closed (the latter
 * at the deadline, not the handler's 10 s) and counted; silent connections hold at most the limit of
 * pending handshakes, the oldest is dropped for a newcomer once it has stalled, and a real client is
 * served; one address has at most its cap of connections in a TLS handshake. Before, the HTTPS servers
 * had none of these (a stalled handshake was held 10 s, nothing was counted, any number of silent
 * connections up to the connection cap held their place).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpsHandshakeBoundsTest {
    private static final KeyMaterial KEY = Certificates.selfSigned("localhost", Certificates.localhostNames());
    private final List<Socket> raw = new ArrayList<>();
    private HttpRelay relay;

    /** The JVM's first TLS handshake (providers loading, cold code) outside the timings of the tests. */
    @BeforeAll
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    static void warmUp() throws Exception {
        try (HttpRelay warm = HttpRelay.start(new InetSocketAddress("localhost", 0), serverContext(), RelayLimits.defaults())) {
            assertThat(realClientStatus(null, warm.port())).isEqualTo(404);
        }
    }

    @AfterEach
    void close() throws IOException {
        System.clearProperty("sessionj.tls.maxHandshakesPerAddress");
        for (Socket s : raw) {
            s.close();
        }
        if (relay != null) {
            relay.close();
        }
    }

    private static SslContext serverContext() throws IOException {
        return TlsContexts.server(TlsConfig.builder().keyMaterial(KEY).build());
    }

    @Test
    void bytesThatAreNoTlsAndAStalledClientHelloAreClosedCountedAndARealClientIsServed() throws Exception {
        // Requests must arrive within 3 s, and so must a TLS handshake finish.
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), serverContext(),
                RelayLimits.defaults().withTimes(10_000, 3_000));
        Socket plain = silent(null, relay.port());
        plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(closedByServer(plain)).as("plain HTTP on the HTTPS port closed").isTrue();
        await(() -> relay.failedTlsHandshakes() == 1, "the plain request counted as a failed TLS handshake");

        Socket stalled = silent(null, relay.port());
        stalled.getOutputStream().write(clientHello());
        long start = System.nanoTime();
        assertThat(closedByServer(stalled)).as("the stalled handshake closed by the server").isTrue();
        // The bound is the relay's request deadline (3 s from the accept): before, the handler's 10 s.
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("ms until it was closed")
                .isLessThan(9_000);
        await(() -> relay.failedTlsHandshakes() == 2, "the stalled handshake counted");
        await(() -> relay.pendingTlsHandshakes() == 0, "every slot back");
        assertThat(realClientStatus(null, relay.port())).isEqualTo(404);
        assertThat(relay.failedTlsHandshakes()).as("a real client is no failure").isEqualTo(2);
    }

    @Test
    void silentConnectionsHoldAtMostTheLimitAndTheOldestIsDroppedForARealClient() throws Exception {
        // 3 in their TLS handshake at once (the default, a quarter of 4,096 connections, is 1,024).
        RelayLimits limits = RelayLimits.defaults().withPendingTlsHandshakes(3);
        assertThat(RelayLimits.defaults().maxPendingTlsHandshakes()).isEqualTo(1024);
        assertThat(RelayLimits.defaults().withConnections(12).maxPendingTlsHandshakes()).isEqualTo(3);
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), serverContext(), limits);
        for (int i = 0; i < 4; i++) {
            silent(null, relay.port());
        }
        await(() -> relay.pendingTlsHandshakes() == 3, "three slots held");
        long start = System.nanoTime();
        // The fourth silent connection and this client wait; once the oldest has stalled 5 s it is dropped.
        assertThat(realClientStatus(null, relay.port())).isEqualTo(404);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(closedByServer(raw.get(0))).as("the oldest silent connection dropped").isTrue();
        assertThat(relay.failedTlsHandshakes()).as("drops counted").isPositive();
        assertThat(relay.pendingTlsHandshakes()).as("slots held").isLessThanOrEqualTo(3);
        System.out.printf("a real client served after %d ms behind 4 silent TLS connections (limit 3)%n", tookMs);
    }

    @Test
    void oneAddressHasAtMostItsCapOfConnectionsInATlsHandshake() throws Exception {
        System.setProperty("sessionj.tls.maxHandshakesPerAddress", "2");
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), serverContext(), RelayLimits.defaults());
        silent("127.0.0.2", relay.port());
        silent("127.0.0.2", relay.port());
        await(() -> relay.pendingTlsHandshakes() == 2, "two slots held");
        Socket third = silent("127.0.0.2", relay.port());
        assertThat(closedByServer(third)).as("the third from 127.0.0.2 closed at once").isTrue();
        assertThat(relay.refusedTlsPerAddress()).isEqualTo(1);
        assertThat(realClientStatus(null, relay.port())).as("127.0.0.1 served").isEqualTo(404);
    }

    @Test
    void anHttpsAcceptorCountsItsTlsHandshakesInTheServerSocketsSlots() throws Exception {
        Recorded slots = new Recorded(2, TimeUnit.SECONDS.toNanos(2));
        HttpsTransport https = new HttpsTransport(TestConfigs.of(), TlsConfig.builder().keyMaterial(KEY)
                .trust(KEY.certificate()).build());
        try (ConnectionAcceptor acceptor = https.listen(0)) {
            acceptor.countHandshakes(slots);
            int port = acceptor.port(); // direct mode, sessionj.http.portOffset 0: the TCP port
            Socket plain = silent(null, port);
            plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(closedByServer(plain)).isTrue();
            Socket stalled = silent(null, port);
            stalled.getOutputStream().write(clientHello());
            long start = System.nanoTime();
            assertThat(closedByServer(stalled)).isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("ms until closed (deadline 2 s)")
                    .isLessThan(9_000);
            await(() -> slots.held.get() == 0, "every slot back");
            assertThat(slots.failed).containsExactly("expected a TLS record (a ClientHello), found 47 45 54 20 2f 20 48"
                    + " 54 54 50 2f 31 2e 31 0d 0a …");
            assertThat(slots.expired.get()).isEqualTo(1);
            // Two silent connections take both slots; the third waits, reading nothing, until one closes.
            Socket first = silent(null, port);
            silent(null, port);
            await(() -> slots.held.get() == 2, "both slots held");
            Socket third = silent(null, port);
            third.getOutputStream().write(clientHello());
            await(() -> slots.refusals.get() > 0, "the third refused a slot");
            assertThat(slots.held.get()).isEqualTo(2);
            first.close();
            await(() -> slots.entered.get() == 5, "the third got the slot the first gave back");
        }
    }

    /** Slots that record what the transport tells them. */
    private static final class Recorded implements HandshakeSlots {
        final int limit;
        final long timeoutNanos;
        final AtomicInteger held = new AtomicInteger();
        final AtomicInteger entered = new AtomicInteger();
        final AtomicInteger refusals = new AtomicInteger();
        final AtomicInteger expired = new AtomicInteger();
        final Queue<String> failed = new ConcurrentLinkedQueue<>();

        Recorded(int limit, long timeoutNanos) {
            this.limit = limit;
            this.timeoutNanos = timeoutNanos;
        }

        @Override
        public Slot tryEnter(String transport, Runnable drop) {
            assertThat(transport).isEqualTo("https");
            if (held.incrementAndGet() > limit) {
                held.decrementAndGet();
                refusals.incrementAndGet();
                return null;
            }
            entered.incrementAndGet();
            return new Slot() {
                private final java.util.concurrent.atomic.AtomicBoolean left = new java.util.concurrent.atomic.AtomicBoolean();

                @Override
                public void leave() {
                    if (left.compareAndSet(false, true)) {
                        held.decrementAndGet();
                    }
                }

                @Override
                public void expired() {
                    if (left.compareAndSet(false, true)) {
                        held.decrementAndGet();
                        expired.incrementAndGet();
                    }
                }

                @Override
                public void failed(String expectedAndFound) {
                    if (left.compareAndSet(false, true)) {
                        held.decrementAndGet();
                        failed.add(expectedAndFound);
                    }
                }
            };
        }

        @Override
        public long transportHandshakeTimeoutNanos() {
            return timeoutNanos;
        }
    }

    /** A TCP connection to {@code port} on loopback from {@code local} (null: any) that sends nothing by itself. */
    private Socket silent(String local, int port) throws IOException {
        Socket s = new Socket();
        raw.add(s);
        if (local != null) {
            s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
        }
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    /** A real HTTPS client's answer to a request for an unknown target (404 from a relay). */
    private static int realClientStatus(String local, int port) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket()) {
            if (local != null) {
                tls.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
            }
            tls.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            tls.setSoTimeout(30_000);
            OutputStream out = tls.getOutputStream();
            out.write(("GET " + Wire.TARGET + "?name=nobody:1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = tls.getInputStream();
            String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII); // "HTTP/1.1 404"
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    /** Reads until the server closes the connection (it may send a TLS alert first); false on a read timeout (20 s). */
    private static boolean closedByServer(Socket s) {
        try {
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
                // an alert record, if any
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    /** Waits (at most 20 s) until {@code condition} holds. */
    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** The first flight of a real TLS client (its ClientHello record), made by a JDK engine. */
    private static byte[] clientHello() throws Exception {
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLEngine engine = context.createSSLEngine("localhost", 443);
        engine.setUseClientMode(true);
        engine.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }
}
