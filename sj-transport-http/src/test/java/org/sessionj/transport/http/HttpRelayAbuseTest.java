package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;

/**
 * The relay faces the internet: what a client that lies, floods, stalls or vanishes does to it. Small
 * limits and short times, so that each bound is reached quickly; every test checks the relay still
 * serves afterwards and holds no more memory than its bounds.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpRelayAbuseTest {
    private static final int STREAM = 256 << 10;
    private static final int SEGMENT = 64 << 10;
    private static final HttpSettings SETTINGS = new HttpSettings(500, SEGMENT, STREAM, STREAM, 1_500, true, 16 << 20);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** Vanish, pairing and request times for tests that do not test them: far beyond any scheduling stall. */
    private static final int PATIENT_MILLIS = 50_000;
    private HttpRelay relay;

    @BeforeEach
    void start() throws IOException {
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), null, SETTINGS,
                new RelayLimits(64, 6, 8, 64, 3, 1_000, 8L << 20, 1_000));
    }

    @AfterEach
    void stop() {
        relay.close();
    }

    private HttpTransport client(boolean websocket) {
        return client(websocket, SETTINGS.vanishMillis());
    }

    private HttpTransport client(boolean websocket, int vanishMillis) {
        return new HttpTransport(TestConfigs.of("sessionj.http.relay", "localhost:" + relay.port(),
                "sessionj.http.websocket", String.valueOf(websocket), "sessionj.http.pollMillis", "500",
                "sessionj.http.vanishMillis", String.valueOf(vanishMillis), "sessionj.http.segmentBytes",
                String.valueOf(SEGMENT), "sessionj.http.streamBytes", String.valueOf(STREAM)));
    }

    private RawHttp raw() throws IOException {
        return new RawHttp(relay.port(), 5_000);
    }

    private void stillServes() throws IOException {
        try (RawHttp http = raw()) {
            assertThat(http.exchange("GET", Wire.TARGET + "?name=nobody:1").status()).isEqualTo(404);
        }
    }

    private static String register(RawHttp http, String id, String name, int port) throws IOException {
        RawHttp.Response r = http.exchange("POST", Wire.LISTEN + "?id=" + id + "&port=" + port + "&name=" + name
                + "&register=1");
        return r.status() + " " + r.body();
    }

    @Test
    void garbageBadRequestsAndUnknownTokensGetCleanErrors() throws IOException {
        try (RawHttp http = raw()) {
            http.send("\u0000\u0001\u0002 not http at all\r\n\r\n");
            RawHttp.Response r = http.read();
            assertThat(r.status()).isIn(-1, 400);
        }
        try (RawHttp http = raw()) {
            assertThat(http.exchange("GET", Wire.SESSION + "0123456789abcdef0123456789abcdef/down?ack=0").status())
                    .isEqualTo(404);
            assertThat(http.exchange("GET", Wire.SESSION + "../../etc/passwd/down?ack=0").status()).isEqualTo(404);
            assertThat(http.exchange("POST", Wire.CONNECT).body()).contains("target=host:port");
            assertThat(http.exchange("POST", Wire.LISTEN + "?id=short&port=1").status()).isEqualTo(400);
            assertThat(http.exchange("POST", Wire.LISTEN + "?id=" + Wire.newToken() + "&port=1&name=a/b&register=1")
                    .status()).isEqualTo(400);
            assertThat(http.exchange("GET", "/").status()).isEqualTo(404);
        }
        stillServes();
    }

    /**
     * A malformed percent-escape in a query the relay decodes is the client's mistake: 400 naming it, on a
     * connection that stays usable (before: 500 "internal error: IllegalArgumentException" and a WARNING
     * with a stack trace per request, megabytes of log a second from one connection).
     */
    @Test
    void aMalformedPercentEscapeIsABadRequestNotAnInternalError() throws IOException {
        try (RawHttp http = raw()) {
            for (String uri : java.util.List.of(Wire.CONNECT + "?target=%zz", Wire.TARGET + "?name=%zz",
                    Wire.LISTEN + "?id=%zz&port=0&name=a&register=1", Wire.CONNECT + "?target=%4", Wire.CONNECT + "%zz")) {
                for (int i = 0; i < 50; i++) {
                    RawHttp.Response r = http.exchange(uri.startsWith(Wire.TARGET) ? "GET" : "POST", uri);
                    assertThat(r.status()).as(uri).isEqualTo(400);
                    assertThat(r.body()).as(uri).contains("malformed request URI").doesNotContain("internal error");
                }
            }
        }
        stillServes();
    }

    @Test
    void aRequestPipelinedBehindAHeldOneClosesTheConnectionAtOnce() throws IOException {
        String id = Wire.newToken();
        try (RawHttp http = raw()) {
            assertThat(register(http, id, "pipeliner", 4100)).startsWith("200");
            // A server's poll for connections: held (none wait) for the poll interval, 500 ms.
            http.send("POST " + Wire.LISTEN + "?id=" + id + "&port=4100&name=pipeliner HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Length: 0\r\n\r\n");
            http.send("GET " + Wire.TARGET + "?name=pipeliner:4100 HTTP/1.1\r\nHost: x\r\n\r\n");
            // Closed without answering either: not the held poll's 204 after the interval, then a 200.
            assertThat(http.read().status()).isEqualTo(-1);
        }
        stillServes();
    }

    @Test
    void anOversizedBodyIsRefusedBeforeItIsRead() throws IOException {
        try (RawHttp http = raw()) {
            http.send("POST " + Wire.CONNECT + "?target=a:1 HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(413);
        }
        assertThat(relay.stats().bufferedBytes()).isZero();
        stillServes();
    }

    @Test
    void aClientThatStallsInTheMiddleOfARequestIsDropped() throws IOException {
        try (RawHttp http = raw()) {
            http.send("POST " + Wire.CONNECT + "?target=a:1 HTTP/1.1\r\nHost: x\r\n"); // and nothing more
            long start = System.nanoTime();
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(408);
            assertThat(http.closedByServer()).isTrue();
            assertThat(System.nanoTime() - start).isLessThan(5 * SECOND);
        }
        stillServes();
    }

    @Test
    void connectionsBeyondTheLimitAreClosedOrEvictIdleOnesAndTheRelayGoesOn() throws IOException {
        List<RawHttp> many = new ArrayList<>();
        try {
            for (int i = 0; i < 80; i++) {
                many.add(raw());
            }
            int closed = 0;
            for (RawHttp http : many) {
                int status;
                try {
                    status = http.exchange("GET", Wire.TARGET + "?name=nobody:1").status();
                } catch (IOException e) {
                    status = -1; // reset by the relay
                }
                if (status == -1) {
                    closed++;
                } else {
                    assertThat(status).isEqualTo(404);
                }
            }
            // Each of the 16 beyond the limit is closed at its accept, or, when the relay accepts it after earlier
            // ones were answered (a loaded machine), evicts idle ones of them (hostile18 H1): never more closed.
            assertThat(closed).isLessThanOrEqualTo(16);
            assertThat(closed + relay.evictedIdle()).isGreaterThanOrEqualTo(16);
        } finally {
            for (RawHttp http : many) {
                http.close();
            }
        }
        stillServes();
    }

    @Test
    void aNameRegisteredByOneServerIsRefusedToAnother() throws IOException {
        try (RawHttp http = raw()) {
            assertThat(register(http, Wire.newToken(), "alpha", 4000)).startsWith("200");
            assertThat(register(http, Wire.newToken(), "alpha", 4000)).startsWith("409")
                    .contains("another server is registered at this relay for alpha:4000");
            assertThat(register(http, Wire.newToken(), "alpha", 4001)).startsWith("200");
        }
    }

    @Test
    void connectionsToAServerThatNeverTakesThemAreLimitedAndExpire() throws IOException {
        try (RawHttp http = raw()) {
            assertThat(register(http, Wire.newToken(), "sleepy", 5000)).startsWith("200");
            List<String> tokens = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                RawHttp.Response r = http.exchange("POST", Wire.CONNECT + "?target=sleepy:5000");
                assertThat(r.status()).isEqualTo(200);
                tokens.add(r.body());
            }
            RawHttp.Response refused = http.exchange("POST", Wire.CONNECT + "?target=sleepy:5000");
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.body()).contains("connections waiting already");
            // The pairing deadline (1 s) passes: the requester's poll learns why.
            RawHttp.Response poll = http.exchange("GET", Wire.sessionPath(tokens.get(0), "down") + "?ack=0");
            long deadline = System.nanoTime() + 10 * SECOND;
            while (poll.status() == 204 && System.nanoTime() < deadline) {
                poll = http.exchange("GET", Wire.sessionPath(tokens.get(0), "down") + "?ack=0");
            }
            assertThat(poll.status()).isIn(404, 410);
        }
        stillServes();
    }

    @Test
    void sessionsBeyondTheLimitAreRefused() throws Exception {
        HttpTransport transport = client(false);
        try (ConnectionAcceptor acceptor = transport.listen(0)) {
            List<Connection> open = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    open.add(transport.connect("localhost", acceptor.port(), 5 * SECOND));
                    open.add(acceptor.accept(5 * SECOND));
                }
                assertThatThrownBy(() -> transport.connect("localhost", acceptor.port(), 5 * SECOND))
                        .isInstanceOf(IOException.class).hasMessageContaining("503")
                        .hasMessageContaining("connections already");
            } finally {
                open.forEach(Connection::close);
            }
        }
        stillServes();
    }

    @Test
    void aFloodingWriterIsHeldBackAndTheRelayBuffersNoMoreThanItsBound() throws Exception {
        // What is tested is the buffer bound, not the vanish, pairing or request times: those are left
        // generous here. With the class's 1 s pairing and request times and 1.5 s vanish time, a loaded
        // machine that kept the stalled side's loop or the acceptor's listen poll off the CPU for a second
        // (seen: whole-process stalls of up to 1 s on the shared build machine) made the relay forget the
        // connection, and the test failed with "404 no such connection" instead of measuring the bound.
        relay.close();
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), null, SETTINGS.withTimes(500, PATIENT_MILLIS),
                new RelayLimits(64, 6, 8, 64, 3, PATIENT_MILLIS, 8L << 20, PATIENT_MILLIS));
        for (boolean websocket : new boolean[] {false, true}) {
            HttpTransport transport = client(websocket, PATIENT_MILLIS);
            try (ConnectionAcceptor acceptor = transport.listen(0)) {
                Connection flooder = transport.connect("localhost", acceptor.port(), 5 * SECOND);
                Connection stalled = acceptor.accept(5 * SECOND);
                CompletableFuture<Integer> writes = CompletableFuture.supplyAsync(() -> {
                    int sent = 0;
                    try {
                        for (; sent < 400; sent++) {
                            ByteBuf frame = flooder.alloc().buffer(SEGMENT);
                            frame.writeZero(SEGMENT);
                            flooder.write(frame);
                            flooder.flush();
                        }
                    } catch (IOException e) {
                        // closed below
                    }
                    return sent;
                });
                long until = System.nanoTime() + 2 * SECOND;
                long most = 0;
                while (System.nanoTime() < until) {
                    most = Math.max(most, relay.stats().bufferedBytes());
                    Thread.sleep(20); // sampling the relay's memory, not synchronising
                }
                assertThat(writes).isNotDone();
                assertThat(most).as("relay buffer (websocket=%s)", websocket).isLessThanOrEqualTo(STREAM + 2L * SEGMENT);
                // The reader catches up: everything arrives, in order.
                int received = 0;
                while (received < 400) {
                    ByteBuf frame = stalled.read(10 * SECOND);
                    assertThat(frame).as("frame %d", received).isNotNull();
                    assertThat(frame.readableBytes()).isEqualTo(SEGMENT);
                    frame.release();
                    received++;
                }
                assertThat(writes.get(10, TimeUnit.SECONDS)).isEqualTo(400);
                flooder.close();
                stalled.close();
            }
        }
        stillServes();
    }

    @Test
    void aPeerThatVanishesFailsTheOtherSidesReadAndFreesItsBuffers() throws Exception {
        HttpTransport transport = client(false);
        try (ConnectionAcceptor acceptor = transport.listen(0); RawHttp http = raw()) {
            RawHttp.Response opened = http.exchange("POST", Wire.CONNECT + "?target=localhost:" + acceptor.port());
            assertThat(opened.status()).isEqualTo(200);
            byte[] frame = {0, 0, 0, 2, 'h', 'i'};
            assertThat(http.exchange("POST", Wire.sessionPath(opened.body(), "up") + "?offset=0", frame).status())
                    .isEqualTo(204);
            Connection server = acceptor.accept(5 * SECOND);
            ByteBuf hi = server.read(5 * SECOND);
            assertThat(hi.readableBytes()).isEqualTo(2);
            hi.release();
            // The raw client now says nothing more: after the vanish time the server's read fails.
            long start = System.nanoTime();
            assertThatThrownBy(() -> server.read(10 * SECOND)).isInstanceOf(IOException.class)
                    .hasMessageContaining("vanished");
            assertThat(System.nanoTime() - start).isLessThan(8 * SECOND);
            server.close();
        }
        assertThat(relay.stats().bufferedBytes()).isZero();
        stillServes();
    }

    @Test
    void anUploadThatSkipsBytesBreaksTheConnectionInsteadOfCorruptingIt() throws Exception {
        HttpTransport transport = client(false);
        try (ConnectionAcceptor acceptor = transport.listen(0); RawHttp http = raw()) {
            String token = http.exchange("POST", Wire.CONNECT + "?target=localhost:" + acceptor.port()).body();
            RawHttp.Response gap = http.exchange("POST", Wire.sessionPath(token, "up") + "?offset=100", new byte[] {1});
            assertThat(gap.status()).isEqualTo(409);
            assertThat(gap.body()).contains("bytes were lost");
            byte[] liar = {(byte) 0x7f, 0, 0, 0};
            assertThat(http.exchange("POST", Wire.sessionPath(token, "up") + "?offset=0", liar).status()).isEqualTo(204);
            Connection server = acceptor.accept(5 * SECOND);
            assertThatThrownBy(() -> server.read(5 * SECOND)).isInstanceOf(IOException.class)
                    .hasMessageContaining("over the maximum frame size");
            server.close();
        }
        stillServes();
    }
}
