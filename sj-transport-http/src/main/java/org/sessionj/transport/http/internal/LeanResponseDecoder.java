package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A long-polling client's lean response decoder, in front of Netty's {@link HttpClientCodec}: the
 * answers of an SJ server or relay, directly or through a proxy — HTTP/1.1 or 1.0, a body given by
 * {@code Content-Length} (none on 204 and 304) — are decoded straight from the received bytes; at the
 * first answer it does not take the connection goes to Netty's codec for good (docs/http-transport.md,
 * "Lean codec"). The answer keeps only the headers the client reads: {@code Connection} and the
 * mapping's {@code X-SJ-*} headers; every other header is checked for form and skipped (a proxy's
 * {@code Server}, {@code Date}, ...).
 *
 * <p>Handed to Netty's codec: a status line that is not {@code HTTP/1.x NNN reason}; an informational
 * (1xx) answer; a body without {@code Content-Length} (chunked, or up to the close); a repeated or
 * malformed {@code Content-Length}, or one over the body bound (the assembler fails the channel);
 * and the same malformed or oversized heads as {@link LeanRequestDecoder}. While it decodes, the
 * requests of the channel are written by {@link LeanEncoder} through {@link #rawContext()}; after,
 * through Netty's codec, whose decoder pairs each answer with a request its encoder saw.
 */
final class LeanResponseDecoder extends LeanDecoder {
    /** The headers of the mapping a client reads (docs/http-transport.md); every other header is skipped. */
    private static final String[] KEPT = {Wire.OFFSET, Wire.FIN, Wire.WIRE, Wire.PORT, Wire.NONCE};
    private static final HttpHeaders NO_HEADERS = new ReadOnlyHttpHeaders(false);

    // the head being scanned
    private long contentLength;
    private int connection;
    /** The kept headers' names and values, in pairs (at most those of {@link #KEPT} and Connection). */
    private final CharSequence[] kept = new CharSequence[2 * (KEPT.length + 1)];
    private int keptLength;

    /** A decoder for answers with bodies of at most {@code maxBody} bytes. */
    LeanResponseDecoder(int maxBody) {
        super(maxBody);
    }

    @Override
    void decodeHead(ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int lineEnd = HeadScanner.lineEnd(in, start, end, HeadScanner.MAX_START_LINE);
        if (lineEnd == HeadScanner.NEED_MORE) {
            if (end - start >= 9 && HeadScanner.version(in, start, start + 8) < 0) {
                toNetty(in, out); // not a status line: no need to wait for its end
            }
            return;
        }
        // "HTTP/1.1 200 OK": version, space, three digits, space, reason (visible ASCII, spaces, tabs)
        int cr = lineEnd - 1;
        int version = cr - start >= 13 ? HeadScanner.version(in, start, start + 8) : -1;
        long code = version < 0 ? -1 : HeadScanner.digits(in, start + 9, start + 12);
        if (code < 200 || code > 599 || in.getByte(start + 8) != ' ' || in.getByte(start + 12) != ' '
                || !reason(in, start + 13, cr)) {
            toNetty(in, out);
            return;
        }
        contentLength = -1;
        connection = HeadScanner.CONNECTION_OTHER;
        keptLength = 0;
        int headEnd = HeadScanner.headers(in, lineEnd + 1, end, this);
        if (headEnd == HeadScanner.NEED_MORE) {
            return;
        }
        boolean noBody = code == 204 || code == 304;
        if (headEnd == HeadScanner.UNUSUAL || !noBody && (contentLength < 0 || contentLength > maxBody)) {
            toNetty(in, out);
            return;
        }
        HttpVersion httpVersion = version == 1 ? HttpVersion.HTTP_1_1 : HttpVersion.HTTP_1_0;
        HttpResponseStatus status = status((int) code, in, start + 13, cr);
        if ((connection & HeadScanner.CONNECTION_CLOSE) != 0) {
            keep(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if ((connection & HeadScanner.CONNECTION_KEEP_ALIVE) != 0) {
            keep(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        long length = noBody ? 0 : contentLength;
        if (end - headEnd >= length) {
            ByteBuf body = length == 0 ? Unpooled.EMPTY_BUFFER : in.retainedSlice(headEnd, (int) length);
            in.readerIndex(headEnd + (int) length);
            // A read-only list of the few kept pairs: no header map per answer (nothing changes an answer's headers).
            HttpHeaders headers = keptLength == 0 ? NO_HEADERS
                    : new ReadOnlyHttpHeaders(false, Arrays.copyOf(kept, keptLength));
            out.add(new DefaultFullHttpResponse(httpVersion, status, body, headers, EmptyHttpHeaders.INSTANCE));
            return;
        }
        HttpHeaders headers = Wire.HEADERS.newHeaders();
        for (int i = 0; i < keptLength; i += 2) {
            headers.add(kept[i], kept[i + 1]);
        }
        headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
        in.readerIndex(headEnd);
        bodyFollows(length);
        out.add(new DefaultHttpResponse(httpVersion, status, headers));
    }

    @Override
    public boolean header(ByteBuf buf, int name, int nameEnd, int value, int valueEnd) {
        int length = nameEnd - name;
        if (length == 14 && HeadScanner.is(buf, name, nameEnd, "content-length")) {
            if (contentLength >= 0) {
                return false;
            }
            contentLength = HeadScanner.digits(buf, value, valueEnd);
            return contentLength >= 0;
        }
        if (length == 10 && HeadScanner.is(buf, name, nameEnd, "connection")) {
            connection |= HeadScanner.connection(buf, value, valueEnd);
            return true;
        }
        if (length == 17 && HeadScanner.is(buf, name, nameEnd, "transfer-encoding")) {
            return false;
        }
        for (String mine : KEPT) {
            if (HeadScanner.is(buf, name, nameEnd, mine)) {
                if (keptLength >= kept.length - 2) {
                    return false; // the same header again and again: Netty's codec keeps them all
                }
                keep(mine, buf.toString(value, valueEnd - value, StandardCharsets.US_ASCII));
                break;
            }
        }
        return true;
    }

    private void keep(CharSequence name, CharSequence value) {
        kept[keptLength++] = name;
        kept[keptLength++] = value;
    }

    /** Reason-phrase bytes: visible ASCII, spaces and tabs. */
    private static boolean reason(ByteBuf in, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = in.getByte(i);
            if (b < 0x20 && b != '\t' || b == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** The status: Netty's shared one when the reason is the standard phrase (always, from SJ servers). */
    private static HttpResponseStatus status(int code, ByteBuf in, int from, int to) {
        HttpResponseStatus known = HttpResponseStatus.valueOf(code);
        if (HeadScanner.exactly(in, from, to, known.reasonPhrase())) {
            return known;
        }
        return new HttpResponseStatus(code, in.toString(from, to - from, StandardCharsets.US_ASCII));
    }
}
