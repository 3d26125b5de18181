package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The tunnel server's lean request decoder, in front of Netty's {@link HttpServerCodec}: it decodes the
 * requests SJ clients and proxies in front of them send — {@code GET} or {@code POST}, HTTP/1.1 or
 * 1.0, a body given by {@code Content-Length} — straight from the received bytes, and hands the
 * connection to Netty's codec for good at the first request it does not take (docs/http-transport.md,
 * "Lean codec"). It reads the request line and only the headers that change how the request is framed
 * or answered ({@code Content-Length}, {@code Connection}); others are checked for form and skipped.
 * Netty's decoder builds a request object, a header map and strings for every header, and copies each
 * header line; here a request costs its URI string and one request object whose headers are one of
 * three shared read-only maps.
 *
 * <p>Handed to Netty's codec: another method; a request line or head over Netty's own limits; a bare
 * LF, a folded or malformed header line, a control or non-ASCII byte in a header; more than 64
 * headers; {@code Transfer-Encoding} (chunked bodies), {@code Expect}, {@code Upgrade} or {@code
 * Connection: upgrade} (WebSocket); a repeated or malformed {@code Content-Length}, or one over the
 * body bound (the assembler answers 413). So whatever Netty's codec accepts or refuses is accepted or
 * refused the same way, and the lean path only ever sees well-formed requests.
 *
 * <p>A request whose body is all there is one {@code FullHttpRequest} whose content is a slice of the
 * received bytes; a longer body goes on in pieces, as Netty's decoder sends them, for the {@link
 * RequestAssembler}. Answers to requests decoded here are written by {@link LeanEncoder} through
 * {@link #rawContext()}, not through Netty's encoder, which pairs each answer with a request its decoder
 * saw (the HEAD rule): a request and its answer are either both Netty's or both lean.
 */
final class LeanRequestDecoder extends LeanDecoder {
    private static final HttpHeaders NO_HEADERS = new ReadOnlyHttpHeaders(false);
    private static final HttpHeaders CLOSE = new ReadOnlyHttpHeaders(false,
            HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    private static final HttpHeaders KEEP_ALIVE = new ReadOnlyHttpHeaders(false,
            HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);

    // the head being scanned
    private long contentLength;
    private int connection;

    /** A decoder for requests with bodies of at most {@code maxBody} bytes (longer: Netty's codec, 413). */
    LeanRequestDecoder(int maxBody) {
        super(maxBody);
    }

    @Override
    void decodeHead(ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        contentLength = -1;
        connection = HeadScanner.CONNECTION_OTHER;
        HttpMethod method;
        int uri;
        if (HeadScanner.exactly(in, start, Math.min(end, start + 4), "GET ")) {
            method = HttpMethod.GET;
            uri = start + 4;
        } else if (HeadScanner.exactly(in, start, Math.min(end, start + 5), "POST ")) {
            method = HttpMethod.POST;
            uri = start + 5;
        } else {
            if (end - start >= 5 || !prefixOfAMethod(in, start, end)) {
                toNetty(in, out);
            }
            return;
        }
        int lineEnd = HeadScanner.lineEnd(in, start, end, HeadScanner.MAX_START_LINE);
        if (lineEnd == HeadScanner.NEED_MORE) {
            return;
        }
        if (lineEnd == HeadScanner.UNUSUAL) {
            toNetty(in, out);
            return;
        }
        int uriEnd = uri;
        while (uriEnd < lineEnd && isUriByte(in.getByte(uriEnd))) {
            uriEnd++;
        }
        int version = in.getByte(uriEnd) == ' ' && uriEnd > uri ? HeadScanner.version(in, uriEnd + 1, lineEnd - 1) : -1;
        if (version < 0 || in.getByte(uri) != '/') {
            toNetty(in, out);
            return;
        }
        int headEnd = HeadScanner.headers(in, lineEnd + 1, end, this);
        if (headEnd == HeadScanner.NEED_MORE) {
            return;
        }
        if (headEnd == HeadScanner.UNUSUAL || contentLength > maxBody) {
            toNetty(in, out);
            return;
        }
        HttpVersion httpVersion = version == 1 ? HttpVersion.HTTP_1_1 : HttpVersion.HTTP_1_0;
        String target = in.toString(uri, uriEnd - uri, StandardCharsets.US_ASCII);
        long length = Math.max(0, contentLength);
        if (end - headEnd >= length) {
            ByteBuf body = length == 0 ? Unpooled.EMPTY_BUFFER : in.retainedSlice(headEnd, (int) length);
            in.readerIndex(headEnd + (int) length);
            out.add(new DefaultFullHttpRequest(httpVersion, method, target, body, sharedHeaders(),
                    EmptyHttpHeaders.INSTANCE));
            return;
        }
        // The body is still arriving: the head now, the body in pieces as it comes (no copy of it).
        HttpHeaders headers = Wire.HEADERS.newHeaders();
        headers.set(sharedHeaders());
        headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
        in.readerIndex(headEnd);
        bodyFollows(length);
        out.add(new DefaultHttpRequest(httpVersion, method, target, headers));
    }

    private HttpHeaders sharedHeaders() {
        if ((connection & HeadScanner.CONNECTION_CLOSE) != 0) {
            return CLOSE;
        }
        return (connection & HeadScanner.CONNECTION_KEEP_ALIVE) != 0 ? KEEP_ALIVE : NO_HEADERS;
    }

    @Override
    public boolean header(ByteBuf buf, int name, int nameEnd, int value, int valueEnd) {
        switch (nameEnd - name) {
            case 14 -> {
                if (HeadScanner.is(buf, name, nameEnd, "content-length")) {
                    if (contentLength >= 0) {
                        return false; // repeated: Netty's codec decides
                    }
                    contentLength = HeadScanner.digits(buf, value, valueEnd);
                    return contentLength >= 0;
                }
            }
            case 10 -> {
                if (HeadScanner.is(buf, name, nameEnd, "connection")) {
                    connection |= HeadScanner.connection(buf, value, valueEnd);
                    return (connection & HeadScanner.CONNECTION_UPGRADE) == 0;
                }
            }
            case 17 -> {
                return !HeadScanner.is(buf, name, nameEnd, "transfer-encoding");
            }
            case 6 -> {
                return !HeadScanner.is(buf, name, nameEnd, "expect");
            }
            case 7 -> {
                return !HeadScanner.is(buf, name, nameEnd, "upgrade");
            }
            default -> {
                return true;
            }
        }
        return true;
    }

    /** Request-target bytes: visible ASCII. */
    private static boolean isUriByte(byte b) {
        return b > ' ' && b < 0x7f;
    }

    /** Whether the few bytes there are could still become {@code GET } or {@code POST }. */
    private static boolean prefixOfAMethod(ByteBuf in, int start, int end) {
        return "GET ".startsWith(in.toString(start, end - start, StandardCharsets.ISO_8859_1))
                || "POST ".startsWith(in.toString(start, end - start, StandardCharsets.ISO_8859_1));
    }
}
