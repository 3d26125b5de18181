package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.http.internal.Half;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;

/**
 * Wire 2 as a hand-written client sees it (docs/http-transport.md § Wire mapping): the answers that
 * start a connection name the version; an upload with {@code ack=N} is also a poll, answered with the
 * bytes waiting for its client (at once, or when they come); a newer request of the client answers the
 * held one; an overtaken request's stale {@code ack} is served from where the newer one acknowledged; an
 * upload without {@code ack} is answered as in wire 1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpWire2Test {
    private static final HttpSettings SETTINGS = new HttpSettings(5_000, 64 << 10, 256 << 10, 256 << 10, 15_000, true,
            16 << 20);
    private HttpRelay relay;

    @BeforeEach
    void start() throws IOException {
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), null, SETTINGS, RelayLimits.defaults());
    }

    @AfterEach
    void stop() {
        relay.close();
    }

    private RawHttp raw() throws IOException {
        return new RawHttp(relay.port(), 10_000);
    }

    /** A relayed connection made by hand: the requester's token and the server's. */
    private record Pair(String requester, String server) {
    }

    private Pair pair(RawHttp http, String name) throws IOException {
        String id = Wire.newToken();
        RawHttp.Response registered = http.exchange("POST", Wire.LISTEN + "?id=" + id + "&port=4200&name=" + name
                + "&register=1");
        assertThat(registered.status()).isEqualTo(200);
        assertThat(registered.headers()).containsEntry(Wire.WIRE, "2");
        RawHttp.Response connected = http.exchange("POST", Wire.CONNECT + "?target=" + name + ":4200");
        assertThat(connected.status()).isEqualTo(200);
        assertThat(connected.headers()).containsEntry(Wire.WIRE, "2");
        RawHttp.Response tokens = http.exchange("POST", Wire.LISTEN + "?id=" + id + "&port=4200&name=" + name);
        assertThat(tokens.status()).isEqualTo(200);
        assertThat(tokens.headers()).containsEntry(Wire.WIRE, "2");
        return new Pair(connected.body().strip(), tokens.body().strip());
    }

    private static String up(String token, long offset) {
        return Wire.sessionPath(token, "up") + "?offset=" + offset;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void send(RawHttp http, String method, String uri, String body) throws IOException {
        byte[] b = bytes(body);
        http.send(method + " " + uri + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + b.length + "\r\n\r\n");
        http.send(b);
    }

    @Test
    void anUploadWithAckIsHeldUntilThePeersBytesComeAndAnsweredWithThem() throws IOException {
        try (RawHttp control = raw(); RawHttp requester = raw(); RawHttp server = raw()) {
            Pair p = pair(control, "held");
            send(requester, "POST", up(p.requester(), 0) + "&ack=0", "ping"); // held: nothing for the requester yet
            RawHttp.Response polled = server.exchange("GET", Wire.sessionPath(p.server(), "down") + "?ack=0");
            assertThat(polled.status()).isEqualTo(200);
            assertThat(polled.body()).isEqualTo("ping");
            // A wire-1 upload (no ack) is answered at once, as before.
            assertThat(server.exchange("POST", up(p.server(), 0), bytes("pong")).status()).isEqualTo(204);
            RawHttp.Response answer = requester.read();
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("pong");
            assertThat(answer.headers()).containsEntry(Wire.OFFSET, "0");
        }
    }

    @Test
    void anUploadWithAckIsAnsweredAtOnceWithBytesWaitingAlready() throws IOException {
        try (RawHttp control = raw(); RawHttp requester = raw(); RawHttp server = raw()) {
            Pair p = pair(control, "waiting");
            assertThat(server.exchange("POST", up(p.server(), 0), bytes("first")).status()).isEqualTo(204);
            RawHttp.Response answer = requester.exchange("POST", up(p.requester(), 0) + "&ack=0", bytes("x"));
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("first");
            // The upload itself arrived.
            RawHttp.Response polled = server.exchange("GET", Wire.sessionPath(p.server(), "down") + "?ack=0");
            assertThat(polled.body()).isEqualTo("x");
            // window=0: acknowledges, carries nothing, is not held.
            RawHttp.Response noWindow = requester.exchange("POST", up(p.requester(), 1) + "&ack=5&window=0", bytes("y"));
            assertThat(noWindow.status()).isEqualTo(204);
        }
    }

    @Test
    void aNewerRequestAnswersTheHeldUploadAndTakesOverAsThePoll() throws IOException {
        try (RawHttp control = raw(); RawHttp a = raw(); RawHttp b = raw(); RawHttp server = raw()) {
            Pair p = pair(control, "release");
            send(a, "POST", up(p.requester(), 0) + "&ack=0", "held");
            // The upload's bytes are taken before it is held.
            assertThat(server.exchange("GET", Wire.sessionPath(p.server(), "down") + "?ack=0").body()).isEqualTo("held");
            // The client has more to send: its poll on the other connection answers the held upload (204),
            // and the poll is held instead. (Should the poll reach the relay before the upload is held, the
            // roles swap: one of the two is answered 204, the other gets the reply.)
            send(b, "GET", Wire.sessionPath(p.requester(), "down") + "?ack=0", "");
            assertThat(server.exchange("POST", up(p.server(), 0), bytes("reply")).status()).isEqualTo(204);
            RawHttp.Response fromA = a.read();
            RawHttp.Response fromB = b.read();
            assertThat(java.util.List.of(fromA.status(), fromB.status())).containsExactlyInAnyOrder(204, 200);
            assertThat(fromA.status() == 200 ? fromA.body() : fromB.body()).isEqualTo("reply");
        }
    }

    @Test
    void anOvertakenRequestIsServedFromTheNewerAcknowledgementAndAnAckBeyondTheStreamFails() throws IOException {
        try (RawHttp control = raw(); RawHttp requester = raw(); RawHttp server = raw()) {
            Pair p = pair(control, "stale");
            assertThat(server.exchange("POST", up(p.server(), 0), bytes("abcdef")).status()).isEqualTo(204);
            String down = Wire.sessionPath(p.requester(), "down");
            assertThat(requester.exchange("GET", down + "?ack=0").body()).isEqualTo("abcdef");
            assertThat(server.exchange("POST", up(p.server(), 6), bytes("gh")).status()).isEqualTo(204);
            assertThat(requester.exchange("GET", down + "?ack=6").body()).isEqualTo("gh");
            // Sent before the last one but arriving after it (two connections): not an error.
            RawHttp.Response stale = requester.exchange("GET", down + "?ack=2");
            assertThat(stale.status()).isEqualTo(200);
            assertThat(stale.headers()).containsEntry(Wire.OFFSET, "6");
            assertThat(stale.body()).isEqualTo("gh");
            RawHttp.Response beyond = requester.exchange("GET", down + "?ack=100");
            assertThat(beyond.status()).isEqualTo(410);
            assertThat(beyond.body()).contains("acknowledged offset 100 is beyond the 8 bytes written");
        }
    }

    @Test
    void aDirectServersOpenNamesTheWireVersion() throws IOException {
        HttpTransport transport = new HttpTransport(TestConfigs.of("sessionj.http.websocket", "false"));
        try (ConnectionAcceptor acceptor = transport.listen(0); RawHttp http = new RawHttp(acceptor.port(), 10_000)) {
            RawHttp.Response opened = http.exchange("POST", Wire.OPEN);
            assertThat(opened.status()).isEqualTo(200);
            assertThat(opened.headers()).containsEntry(Wire.WIRE, String.valueOf(Wire.VERSION));
            acceptor.accept(TimeUnit.SECONDS.toNanos(10)).close();
        }
    }

    @Test
    void aRelayedPairsConnectionsAreServedOnTheLoopOfItsConnect() throws IOException {
        try (RawHttp control = raw(); RawHttp requesterUp = raw(); RawHttp requesterDown = raw(); RawHttp serverUp = raw();
                RawHttp serverDown = raw()) {
            Pair p = pair(control, "oneloop");
            // Four more connections, landing on the relay's loops in turn: each moves to the pair's loop on
            // its first request and keeps serving there.
            for (int i = 0; i < 3; i++) {
                assertThat(requesterUp.exchange("POST", up(p.requester(), i), bytes("r")).status()).isEqualTo(204);
                assertThat(serverDown.exchange("GET", Wire.sessionPath(p.server(), "down") + "?ack=" + i).body())
                        .isEqualTo("r");
                assertThat(serverUp.exchange("POST", up(p.server(), i), bytes("s")).status()).isEqualTo(204);
                assertThat(requesterDown.exchange("GET", Wire.sessionPath(p.requester(), "down") + "?ack=" + i).body())
                        .isEqualTo("s");
            }
            Half requester = relay.half(p.requester());
            Half server = relay.half(p.server());
            assertThat(requester.home()).isNotNull().isSameAs(server.home());
            assertThat(requester.wasServedAway()).isFalse();
            assertThat(server.wasServedAway()).isFalse();
        }
    }
}
