package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes a whole HTTP message as the bytes Netty's {@code HttpRequestEncoder} / {@code
 * HttpResponseEncoder} write for it (start line, the headers in their order as {@code name: value},
 * the empty line, the body), without that encoder: the lean codecs' answers and requests, which
 * must not pass Netty's encoder (see {@link LeanRequestDecoder}). The bytes are the same
 * ({@code LeanCodecTest} compares them), so nothing changes on the wire.
 */
final class LeanEncoder {
    /** Bodies up to this size are copied behind the head (one buffer, one write); larger go as they are. */
    static final int COPY_LIMIT = 1024;
    private static final int CRLF = '\r' << 8 | '\n';
    private static final int COLON_SPACE = ':' << 8 | ' ';

    private LeanEncoder() {
    }

    /**
     * Writes {@code message} from {@code ctx} towards the socket and flushes. The message's body is
     * handed to the write (the caller gives up the message); {@code promise} is completed by the last
     * write.
     */
    static void write(ChannelHandlerContext ctx, FullHttpMessage message, ChannelPromise promise) {
        ByteBuf body = message.content();
        int length = body.readableBytes();
        write(ctx, head(ctx.alloc(), message, length <= COPY_LIMIT ? length : 0), body, promise);
    }

    /**
     * Writes {@code head} and then {@code body} (both handed to the write) and flushes: a small body
     * is copied behind the head (one buffer), a larger one goes as a second buffer of the same flush.
     */
    static void write(ChannelHandlerContext ctx, ByteBuf head, ByteBuf body, ChannelPromise promise) {
        int length = body.readableBytes();
        if (length == 0) {
            body.release();
            ctx.writeAndFlush(head, promise);
        } else if (length <= COPY_LIMIT) {
            head.writeBytes(body, body.readerIndex(), length);
            body.release();
            ctx.writeAndFlush(head, promise);
        } else {
            ctx.write(head, ctx.voidPromise());
            ctx.writeAndFlush(body, promise);
        }
    }

    private static final byte[] HTTP_1_1_HOST = ascii(" HTTP/1.1\r\nhost: ");
    private static final byte[] CONTENT_LENGTH = ascii("content-length: ");

    /**
     * The head of a client's request as Netty's encoder writes it with {@code host: authority} and,
     * when {@code contentLength >= 0}, {@code content-length}: {@code HttpClientChannel}'s requests,
     * without a header map. Room for {@code extra} more bytes.
     */
    static ByteBuf requestHead(ByteBufAllocator alloc, HttpMethod method, String uri, String authority,
            long contentLength, int extra) {
        ByteBuf out = alloc.buffer(64 + uri.length() + authority.length() + extra);
        out.writeCharSequence(method.name(), StandardCharsets.US_ASCII);
        out.writeByte(' ');
        out.writeCharSequence(uri, StandardCharsets.UTF_8);
        out.writeBytes(HTTP_1_1_HOST);
        out.writeCharSequence(authority, StandardCharsets.US_ASCII);
        out.writeShort(CRLF);
        if (contentLength >= 0) {
            out.writeBytes(CONTENT_LENGTH);
            writeDecimal(out, contentLength);
            out.writeShort(CRLF);
        }
        out.writeShort(CRLF);
        return out;
    }

    private static final byte[] BYTES_1_1 = ascii("HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\n"
            + "content-length: ");
    private static final byte[] BYTES_1_0 = ascii("HTTP/1.0 200 OK\r\ncontent-type: application/octet-stream\r\n"
            + "content-length: ");
    private static final byte[] BYTES_OFFSET = ascii("\r\ncache-control: no-store\r\nx-sj-offset: ");
    private static final byte[] FIN = ascii("x-sj-fin: 1\r\n");
    private static final byte[] NO_CONTENT_1_1 = ascii("HTTP/1.1 204 No Content\r\ncache-control: no-store\r\n");
    private static final byte[] NO_CONTENT_1_0 = ascii("HTTP/1.0 204 No Content\r\ncache-control: no-store\r\n");
    private static final byte[] CLOSE = ascii("connection: close\r\n");
    private static final byte[] KEEP_ALIVE = ascii("connection: keep-alive\r\n");

    /**
     * The head of a poll's answer with {@code length} stream bytes from {@code offset}: the bytes
     * {@code Wire.bytes} with {@code X-SJ-Offset} (and {@code X-SJ-Fin}), answered by {@link Exchange},
     * encodes to, without building that response. Room for {@code extra} more bytes.
     */
    static ByteBuf bytesHead(ByteBufAllocator alloc, boolean http10, boolean keepAlive, int length, long offset,
            boolean fin, int extra) {
        ByteBuf out = alloc.buffer(192 + extra);
        out.writeBytes(http10 ? BYTES_1_0 : BYTES_1_1);
        writeDecimal(out, length);
        out.writeBytes(BYTES_OFFSET);
        writeDecimal(out, offset);
        out.writeShort(CRLF);
        if (fin) {
            out.writeBytes(FIN);
        }
        connection(out, http10, keepAlive);
        out.writeShort(CRLF);
        return out;
    }

    /** The head (and whole answer) of "nothing new": what {@code Wire.empty(204)} answered encodes to. */
    static ByteBuf noContent(ByteBufAllocator alloc, boolean http10, boolean keepAlive) {
        ByteBuf out = alloc.buffer(96);
        out.writeBytes(http10 ? NO_CONTENT_1_0 : NO_CONTENT_1_1);
        connection(out, http10, keepAlive);
        out.writeShort(CRLF);
        return out;
    }

    /** The Connection header {@code HttpUtil.setKeepAlive} leaves: close on 1.1, keep-alive on 1.0, else none. */
    private static void connection(ByteBuf out, boolean http10, boolean keepAlive) {
        if (!http10 && !keepAlive) {
            out.writeBytes(CLOSE);
        } else if (http10 && keepAlive) {
            out.writeBytes(KEEP_ALIVE);
        }
    }

    private static void writeDecimal(ByteBuf out, long value) {
        if (value < 10) {
            out.writeByte('0' + (int) value);
            return;
        }
        int digits = 0;
        for (long v = value; v > 0; v /= 10) {
            digits++;
        }
        int at = out.writerIndex() + digits;
        out.ensureWritable(digits);
        for (long v = value; v > 0; v /= 10) {
            out.setByte(--at, '0' + (int) (v % 10));
        }
        out.writerIndex(out.writerIndex() + digits);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** The head of {@code message} in a new buffer with room for {@code extra} more bytes. */
    static ByteBuf head(ByteBufAllocator alloc, FullHttpMessage message, int extra) {
        ByteBuf out = alloc.buffer(256 + extra);
        boolean noBodyHeaders = false;
        if (message instanceof HttpRequest request) {
            out.writeCharSequence(request.method().name(), StandardCharsets.US_ASCII);
            out.writeByte(' ');
            out.writeCharSequence(request.uri(), StandardCharsets.UTF_8);
            out.writeByte(' ');
            out.writeCharSequence(request.protocolVersion().text(), StandardCharsets.US_ASCII);
        } else {
            HttpResponse response = (HttpResponse) message;
            HttpResponseStatus status = response.status();
            out.writeCharSequence(response.protocolVersion().text(), StandardCharsets.US_ASCII);
            out.writeByte(' ');
            out.writeCharSequence(status.codeAsText(), StandardCharsets.US_ASCII);
            out.writeByte(' ');
            out.writeCharSequence(status.reasonPhrase(), StandardCharsets.US_ASCII);
            // As Netty's server encoder: no Content-Length or Transfer-Encoding on a 1xx or 204 answer.
            noBodyHeaders = status.code() < 200 || status.code() == 204;
        }
        out.writeShort(CRLF);
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = message.headers().iteratorCharSequence(); it.hasNext();) {
            Map.Entry<CharSequence, CharSequence> header = it.next();
            CharSequence name = header.getKey();
            if (noBodyHeaders && (HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)
                    || HttpHeaderNames.TRANSFER_ENCODING.contentEqualsIgnoreCase(name))) {
                continue;
            }
            out.writeCharSequence(name, StandardCharsets.US_ASCII);
            out.writeShort(COLON_SPACE);
            out.writeCharSequence(header.getValue(), StandardCharsets.US_ASCII);
            out.writeShort(CRLF);
        }
        out.writeShort(CRLF);
        return out;
    }
}
