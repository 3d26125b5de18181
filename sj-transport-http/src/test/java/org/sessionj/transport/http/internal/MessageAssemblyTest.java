package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.transport.http.RawHttp;

/**
 * {@link RequestAssembler} and {@link ResponseAssembler}, which replaced Netty's aggregator: bodies in
 * one piece or in many arrive whole, the expectations a client may send are answered as the aggregator
 * did, and bodies past the limit or broken by the decoder are refused with a status, never passed on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessageAssemblyTest {
    private static final HttpSettings SETTINGS = new HttpSettings(500, 1000, 4096, 1 << 20, 5_000, false, 1 << 20);
    /** The most a request body may carry: a segment and some slack. */
    private static final int MAX_BODY = SETTINGS.maxRequestBytes();
    private TunnelServer server;

    /** Answers every request with its method, URI and body, so the test sees what the handler got. */
    private static final Routes ECHO = new Routes() {
        @Override
        public Half half(String token) {
            return null;
        }

        @Override
        public void route(Exchange exchange) {
            String body = exchange.request().content().toString(StandardCharsets.ISO_8859_1);
            exchange.respond(Wire.text(exchange.version(), HttpResponseStatus.OK,
                    exchange.request().method() + " " + exchange.request().uri() + " " + body));
        }
    };

    @BeforeEach
    void start() throws IOException {
        server = TunnelServer.bind(new InetSocketAddress("127.0.0.1", 0), null, SETTINGS, ECHO, 16, 30_000, 1 << 20);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawHttp raw() throws IOException {
        return new RawHttp(server.port(), 10_000);
    }

    @Test
    void bodiesInOnePieceAndInManyArriveWholeAndTheConnectionServesOn() throws IOException {
        try (RawHttp http = raw()) {
            assertThat(http.exchange("POST", "/a?x=1", "one piece".getBytes(StandardCharsets.ISO_8859_1)).body())
                    .isEqualTo("POST /a?x=1 one piece");
            http.send("POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nthree");
            http.send("\r\n1\r\n \r\n");
            http.send("6\r\npieces\r\n0\r\n\r\n");
            assertThat(http.read().body()).isEqualTo("POST /b three pieces");
            assertThat(http.exchange("GET", "/c").body()).isEqualTo("GET /c ");
        }
    }

    @Test
    void anExpectationOfContinueIsAnsweredBeforeTheBodyIsSent() throws IOException {
        try (RawHttp http = raw()) {
            http.send("POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(100);
            http.send("body");
            RawHttp.Response answer = http.read();
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("POST /e body");
        }
    }

    @Test
    void anUnknownExpectationIsRefusedAndTheConnectionClosed() throws IOException {
        try (RawHttp http = raw()) {
            http.send("POST /e HTTP/1.1\r\nHost: x\r\nExpect: telepathy\r\nContent-Length: 4\r\n\r\nbody");
            RawHttp.Response answer = http.read();
            assertThat(answer.status()).isEqualTo(417);
            assertThat(answer.body()).contains("100-continue");
            assertThat(http.closedByServer()).isTrue();
        }
    }

    @Test
    void aChunkedBodyThatGrowsPastTheLimitIsRefusedAndTheConnectionClosed() throws IOException {
        try (RawHttp http = raw()) {
            http.send("POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "x".repeat(MAX_BODY * 2 / 3);
            http.send(Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
            http.send(Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n"); // 4/3 of the limit
            RawHttp.Response answer = http.read();
            assertThat(answer.status()).isEqualTo(413);
            assertThat(answer.body()).contains("at most " + MAX_BODY + " bytes");
            assertThat(http.closedByServer()).isTrue();
        }
        try (RawHttp http = raw()) {
            assertThat(http.exchange("GET", "/after").status()).isEqualTo(200);
        }
    }

    @Test
    void aBrokenChunkIsAnswered400() throws IOException {
        try (RawHttp http = raw()) {
            http.send("POST /bad HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n");
            RawHttp.Response answer = http.read();
            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.body()).contains("malformed HTTP request")
                    .contains("expected an HTTP/1.1 request line, headers, and a body of its Content-Length or in well-formed chunks")
                    .contains("found a length or chunk size that is not a number");
            assertNoClassNames(answer.body());
        }
    }

    /**
     * 400 bodies say in words what was expected and what was found; before, they carried the decoder
     * exception's class name ("malformed HTTP request: java.lang.NumberFormatException: …").
     */
    @Test
    void requestsThatDoNotParseAreAnswered400InWordsWithoutClassNames() throws IOException {
        for (String request : java.util.List.of("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
                "GET /" + "x".repeat(8192) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: x\r\n" + "X-Big: " + "y".repeat(16384) + "\r\n\r\n")) {
            try (RawHttp http = raw()) {
                http.send(request);
                RawHttp.Response answer = http.read();
                assertThat(answer.status()).as(request.substring(0, 40)).isEqualTo(400);
                assertThat(answer.body()).startsWith("malformed HTTP request (expected an HTTP/1.1 request line");
                assertThat(answer.body()).contains("; found ");
                assertNoClassNames(answer.body());
            }
        }
    }

    private static void assertNoClassNames(String body) {
        assertThat(body).doesNotContainPattern("[A-Za-z]+(Exception|Error)\\b").doesNotContain("java.").doesNotContain("io.netty");
    }

    @Test
    void aClientChannelAssemblesAChunkedResponseAndRefusesOneOverItsLimit() throws Exception {
        HttpSettings settings = new HttpSettings(500, 1000, 10, 1 << 20, 5_000, false, 1 << 20);
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // A peer that answers the first request in three chunks and the second with a body past the
            // client's limit (its response size plus 64 KiB).
            Thread peer = Thread.ofVirtual().start(() -> {
                try (Socket s = listener.accept()) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                    OutputStream out = s.getOutputStream();
                    head(in);
                    out.write(("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    out.write(("2\r\nde\r\n1\r\nf\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    head(in);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + (10 + 65536 + 1) + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    in.readLine(); // until the client closes
                } catch (IOException e) {
                    // the client closed
                }
            });
            HttpClientChannel channel = new HttpClientChannel(new Endpoint("127.0.0.1", listener.getLocalPort(), null,
                    settings));
            try {
                FullHttpResponse response = channel.send(channel.request(HttpMethod.GET, "/chunks", null), 10_000)
                        .get(10, TimeUnit.SECONDS);
                try {
                    assertThat(response.protocolVersion()).isEqualTo(HttpVersion.HTTP_1_1);
                    assertThat(response.content().toString(StandardCharsets.ISO_8859_1)).isEqualTo("abcdef");
                    assertThat(ByteBufUtil.getBytes(response.content())).hasSize(6);
                } finally {
                    response.release();
                }
                var tooLong = channel.send(channel.request(HttpMethod.GET, "/huge", null), 10_000);
                assertThatThrownBy(() -> tooLong.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .hasMessageContaining("a response body over " + (10 + 65536) + " bytes");
            } finally {
                channel.close();
                peer.join(10_000);
            }
        }
    }

    private static void head(BufferedReader in) throws IOException {
        String line;
        while ((line = in.readLine()) != null && !line.isEmpty()) {
            // a request head
        }
    }
}
