package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sessionj.transport.http.internal.LeanDifferential.Outcome;

/**
 * The lean codec ({@link LeanRequestDecoder}, {@link LeanResponseDecoder}, {@link LeanEncoder}) against
 * Netty's HTTP codec: the requests and answers SJ clients, servers and proxies send are decoded by the
 * lean decoders exactly as Netty's codec decodes them, however the bytes are cut; everything unusual
 * goes to Netty's codec and comes out as it did without the lean decoder (accepted, or refused the
 * same way); nothing leaks; and the lean encoder writes the very bytes Netty's encoders write.
 */
class LeanCodecTest {
    private static final String TOKEN = "0123456789abcdef0123456789abcdef";
    private static final String UP = Wire.sessionPath(TOKEN, "up");
    private static final String DOWN = Wire.sessionPath(TOKEN, "down");

    /** What SJ clients send, directly and through a stock nginx (HTTP/1.0, Connection: close). */
    private static final List<String> TAKEN_REQUESTS = List.of(
            "POST " + UP + "?offset=0&ack=0 HTTP/1.1\r\nhost: 127.0.0.1:8080\r\ncontent-length: 4\r\n\r\nabcd",
            "GET " + DOWN + "?ack=12 HTTP/1.1\r\nhost: 127.0.0.1:8080\r\n\r\n",
            "POST " + Wire.CONNECT + "?target=a:1 HTTP/1.1\r\nhost: relay:80\r\ncontent-length: 0\r\n\r\n",
            "POST " + UP + "?offset=5 HTTP/1.0\r\nHost: upstream\r\nConnection: close\r\nContent-Length: 3\r\n\r\nxyz",
            "GET " + DOWN + "?ack=0 HTTP/1.0\r\nHost: upstream\r\nConnection: keep-alive\r\nUser-Agent: curl/8\r\n"
                    + "Accept: */*\r\nX-Forwarded-For: 10.0.0.1\r\n\r\n",
            "GET /other HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, close\r\n\r\n",
            // what a stock nginx (1.22, Debian) sent its upstream for a chunked client POST, as captured
            "POST " + UP + "?offset=0 HTTP/1.0\r\nHost: 127.0.0.1:18932\r\nConnection: close\r\nContent-Length: 5\r\n"
                    + "User-Agent: curl/7.88.1\r\nAccept: */*\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nhello",
            "POST /x HTTP/1.1\r\nContent-Length:   2  \r\nX-Empty:\r\n\r\nhi");

    /** Requests the lean decoder hands to Netty's codec (which takes or refuses them as before). */
    private static final List<String> UNUSUAL_REQUESTS = List.of(
            "PUT /x HTTP/1.1\r\nContent-Length: 1\r\n\r\nz",
            "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "POST /x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok",
            "GET " + Wire.sessionPath(TOKEN, "ws") + " HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
            "GET /x HTTP/1.1\nHost: bare-lf\n\n",
            "GET /x HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
            "POST /x HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok",
            "POST /x HTTP/1.1\r\nContent-Length: 2, 2\r\n\r\nok",
            "POST /x HTTP/1.1\r\nContent-Length: +2\r\n\r\nok",
            "POST /x HTTP/1.1\r\nContent-Length: 5000\r\n\r\n",
            "GET /x HTTP/1.1\r\nBad Name: 1\r\n\r\n",
            "GET /x HTTP/1.1\r\nX: a\u0001b\r\n\r\n",
            "GET /x HTTP/2.0\r\n\r\n",
            "GET x HTTP/1.1\r\n\r\n",
            "GET  /x HTTP/1.1\r\n\r\n",
            "\r\nGET /x HTTP/1.1\r\n\r\n",
            "GET /" + "a".repeat(5000) + " HTTP/1.1\r\n\r\n",
            "GET /x HTTP/1.1\r\nX: " + "b".repeat(9000) + "\r\n\r\n",
            "garbage\r\n\r\n",
            "\u0000\u0001\u0002");

    private static final List<String> TAKEN_RESPONSES = List.of(
            "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: 3\r\ncache-control: no-store\r\n"
                    + "x-sj-offset: 7\r\n\r\nabc",
            "HTTP/1.1 204 No Content\r\ncache-control: no-store\r\n\r\n",
            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nx-sj-offset: 9\r\nx-sj-fin: 1\r\nconnection: close\r\n\r\n",
            "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Sat, 28 Nov 2026 05:00:00 GMT\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 32\r\nConnection: keep-alive\r\nX-SJ-Wire: 2\r\n\r\n" + TOKEN,
            "HTTP/1.1 410 Gone\r\ncontent-length: 4\r\n\r\ngone",
            "HTTP/1.0 200 OK\r\nContent-Length: 2\r\nx-sj-port: 4000\r\n\r\nok",
            "HTTP/1.1 502 \r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 Fine\r\nContent-Length: 1\r\n\r\nz");

    private static final List<String> UNUSUAL_RESPONSES = List.of(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
            "HTTP/1.1 200 OK\r\n\r\nuntil the close",
            "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n",
            "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n",
            "HTTP/2 200 OK\r\n\r\n",
            "HTTP/1.1 20x OK\r\n\r\n",
            "HTTP/1.1 200 OK\nContent-Length: 0\n\n",
            "junk");

    @Test
    void theRequestsOfSjClientsAndProxiesAreDecodedLeanAsNettyDecodesThemHoweverTheBytesAreCut() {
        for (String request : TAKEN_REQUESTS) {
            byte[] stream = bytes(request + request);
            Outcome netty = LeanDifferential.requests(stream, stream.length, false);
            for (int cut = 1; cut <= stream.length; cut++) {
                Outcome lean = LeanDifferential.requests(stream, cut, true);
                assertThat(lean.messages()).as("%s cut %d", request, cut).isEqualTo(netty.messages());
                assertThat(lean.written()).isEqualTo(netty.written());
                assertThat(lean.leaked()).isFalse();
                boolean closes = request.contains("lose");
                assertThat(lean.lean()).as("decoded lean: %s", request).isEqualTo(2);
                assertThat(netty.messages()).hasSize(2).allMatch(m -> m.contains("ok=true"));
                assertThat(netty.messages().get(0)).contains("keepAlive=" + !closes);
            }
        }
    }

    @Test
    void unusualRequestsGoToNettysCodecAndComeOutAsWithoutTheLeanDecoder() {
        byte[] first = bytes(TAKEN_REQUESTS.get(0));
        for (String unusual : UNUSUAL_REQUESTS) {
            // After a lean request on the same connection: the hand-over happens mid-connection.
            byte[] stream = concat(first, bytes(unusual));
            for (int cut : new int[] {1, 7, stream.length}) {
                Outcome netty = LeanDifferential.requests(stream, cut, false);
                Outcome lean = LeanDifferential.requests(stream, cut, true);
                assertThat(lean.messages()).as("%s cut %d", unusual, cut).isEqualTo(netty.messages());
                assertThat(lean.written()).as("%s cut %d", unusual, cut).isEqualTo(netty.written());
                assertThat(lean.leaked()).isFalse();
                assertThat(lean.lean()).as("only the first request is lean: %s", unusual).isEqualTo(1);
            }
        }
    }

    @Test
    void aLongBodyGoesOnInPiecesAsItArrivesAndIsAssembledWhole() {
        byte[] body = new byte[900];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        byte[] stream = concat(bytes("POST " + UP + "?offset=0 HTTP/1.1\r\ncontent-length: 900\r\n\r\n"), body,
                bytes(TAKEN_REQUESTS.get(1)));
        Outcome netty = LeanDifferential.requests(stream, stream.length, false);
        for (int cut : new int[] {1, 10, 100, 500, stream.length}) {
            Outcome lean = LeanDifferential.requests(stream, cut, true);
            assertThat(lean.messages()).isEqualTo(netty.messages());
            assertThat(lean.lean()).isEqualTo(2);
            assertThat(lean.leaked()).isFalse();
        }
    }

    @Test
    void theAnswersOfSjServersAndProxiesAreDecodedLeanAsNettyDecodesThem() {
        for (String response : TAKEN_RESPONSES) {
            byte[] stream = bytes(response + response);
            Outcome netty = LeanDifferential.responses(stream, stream.length, false);
            for (int cut = 1; cut <= stream.length; cut++) {
                Outcome lean = LeanDifferential.responses(stream, cut, true);
                assertThat(lean.messages()).as("%s cut %d", response, cut).isEqualTo(netty.messages());
                assertThat(lean.leaked()).isFalse();
                assertThat(lean.lean()).as("decoded lean: %s", response).isEqualTo(2);
            }
        }
    }

    @Test
    void unusualAnswersGoToNettysCodec() {
        byte[] first = bytes(TAKEN_RESPONSES.get(0));
        for (String unusual : UNUSUAL_RESPONSES) {
            byte[] stream = concat(first, bytes(unusual));
            for (int cut : new int[] {1, 5, stream.length}) {
                Outcome netty = LeanDifferential.responses(stream, cut, false);
                Outcome lean = LeanDifferential.responses(stream, cut, true);
                assertThat(lean.messages()).as("%s cut %d", unusual, cut).isEqualTo(netty.messages());
                assertThat(lean.leaked()).isFalse();
                assertThat(lean.lean()).as("only the first answer is lean: %s", unusual).isEqualTo(1);
            }
        }
    }

    @Test
    void theLeanEncoderWritesTheBytesNettysEncodersWrite() {
        List<FullHttpMessage> messages = new ArrayList<>();
        byte[] large = new byte[LeanEncoder.COPY_LIMIT + 100];
        for (boolean keepAlive : new boolean[] {true, false}) {
            for (HttpVersion version : new HttpVersion[] {HttpVersion.HTTP_1_1, HttpVersion.HTTP_1_0}) {
                List<FullHttpResponse> responses = new ArrayList<>(List.of(
                        Wire.bytes(version, Unpooled.wrappedBuffer(bytes("stream bytes"))),
                        Wire.bytes(version, Unpooled.wrappedBuffer(large)),
                        Wire.empty(version, HttpResponseStatus.NO_CONTENT),
                        Wire.text(version, HttpResponseStatus.GONE, "the peer closed"),
                        Wire.versioned(Wire.text(version, HttpResponseStatus.OK, TOKEN))));
                responses.get(0).headers().set(Wire.OFFSET, 42);
                responses.get(0).headers().set(Wire.FIN, "1");
                for (FullHttpResponse response : responses) {
                    // as Exchange.respond does
                    HttpUtil.setKeepAlive(response, keepAlive);
                    if (keepAlive && version.equals(HttpVersion.HTTP_1_0)) {
                        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                    }
                    messages.add(response);
                }
            }
        }
        for (FullHttpMessage message : messages) {
            FullHttpMessage copy = message.retainedDuplicate();
            byte[] netty = encodeByNetty(message);
            byte[] lean = encodeLean(copy);
            assertThat(new String(lean, StandardCharsets.ISO_8859_1)).as("%s", message)
                    .isEqualTo(new String(netty, StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void aClientsRequestsAreWrittenAsNettyWritesThemWithTheirHeaders() {
        byte[] large = new byte[LeanEncoder.COPY_LIMIT + 100];
        HttpClientChannel client = new HttpClientChannel(new Endpoint("relay.example", 8080, null,
                new HttpSettings(500, 1000, 4096, 1 << 20, 5_000, false, 1 << 20)));
        try {
            List<FullHttpRequest> requests = List.of(
                    client.request(HttpMethod.POST, UP + "?offset=0&ack=0", Unpooled.wrappedBuffer(bytes("int"))),
                    client.request(HttpMethod.POST, UP + "?offset=0", Unpooled.wrappedBuffer(large)),
                    client.request(HttpMethod.GET, DOWN + "?ack=3&window=0", null),
                    client.request(HttpMethod.POST, Wire.CONNECT + "?target=h:1", null));
            for (FullHttpRequest request : requests) {
                ByteBuf body = request.content();
                String lean = client.leanHead(Unpooled.buffer().alloc(), request, 0).toString(StandardCharsets.ISO_8859_1)
                        + body.toString(StandardCharsets.ISO_8859_1);
                FullHttpRequest full = client.withHeaders(request);
                assertThat(full.headers().get(HttpHeaderNames.HOST)).isEqualTo("relay.example:8080");
                assertThat(lean).as("%s", full).isEqualTo(new String(encodeByNetty(full), StandardCharsets.ISO_8859_1));
            }
        } finally {
            client.close();
        }
    }

    @Test
    void theLeanPollAnswersAreTheBytesOfTheResponsesTheyStandFor() {
        byte[] large = new byte[LeanEncoder.COPY_LIMIT + 100];
        for (boolean http10 : new boolean[] {false, true}) {
            HttpVersion version = http10 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
            for (boolean keepAlive : new boolean[] {true, false}) {
                for (boolean fin : new boolean[] {false, true}) {
                    for (byte[] body : new byte[][] {new byte[0], bytes("int!"), large}) {
                        for (long offset : new long[] {0, 7, 1234567890123L}) {
                            FullHttpResponse response = Wire.bytes(version, Unpooled.wrappedBuffer(body));
                            response.headers().set(Wire.OFFSET, offset);
                            if (fin) {
                                response.headers().set(Wire.FIN, "1");
                            }
                            keepAlive(response, version, keepAlive);
                            ByteBuf lean = LeanEncoder.bytesHead(Unpooled.buffer().alloc(), http10, keepAlive, body.length,
                                    offset, fin, 0);
                            String expected = new String(encodeByNetty(response), StandardCharsets.ISO_8859_1);
                            assertThat(lean.toString(StandardCharsets.ISO_8859_1)
                                    + new String(body, StandardCharsets.ISO_8859_1)).isEqualTo(expected);
                            lean.release();
                        }
                    }
                }
                FullHttpResponse empty = Wire.empty(version, HttpResponseStatus.NO_CONTENT);
                keepAlive(empty, version, keepAlive);
                ByteBuf lean = LeanEncoder.noContent(Unpooled.buffer().alloc(), http10, keepAlive);
                assertThat(lean.toString(StandardCharsets.ISO_8859_1))
                        .isEqualTo(new String(encodeByNetty(empty), StandardCharsets.ISO_8859_1));
                lean.release();
            }
        }
    }

    /** What {@link Exchange#respond} does to an answer's Connection header. */
    private static void keepAlive(FullHttpResponse response, HttpVersion version, boolean keepAlive) {
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive && version.equals(HttpVersion.HTTP_1_0)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    private static byte[] encodeByNetty(FullHttpMessage message) {
        EmbeddedChannel channel = new EmbeddedChannel(message instanceof DefaultFullHttpRequest
                ? new HttpRequestEncoder() : new HttpResponseEncoder());
        channel.writeOutbound(message);
        return drain(channel);
    }

    private static byte[] encodeLean(FullHttpMessage message) {
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter(),
                new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                        ctx.write(msg, promise);
                    }
                });
        ChannelHandlerContext ctx = channel.pipeline().lastContext();
        LeanEncoder.write(ctx, message, ctx.newPromise());
        return drain(channel);
    }

    private static byte[] drain(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = channel.readOutbound()) != null;) {
            ByteBuf buf = (ByteBuf) o;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            out.writeBytes(bytes);
            buf.release();
        }
        channel.finishAndReleaseAll();
        return out.toByteArray();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
