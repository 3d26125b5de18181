package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * The HTTP mapping of a session connection (docs/http-transport.md): paths, headers and the
 * WebSocket message kinds. Everything under {@link #PREFIX}.
 */
public final class Wire {
    /** Every path of the mapping starts with this. */
    public static final String PREFIX = "/sessionj/v1";
    /** Direct mode: opens a connection to the server; answers its token. */
    public static final String OPEN = PREFIX + "/open";
    /** Relay: a requester opens a connection to a registered target; answers its token. */
    public static final String CONNECT = PREFIX + "/connect";
    /** Relay: a server registers targets and waits (long poll) for connections to them. */
    public static final String LISTEN = PREFIX + "/listen";
    /** Relay: whether a target is registered (for {@code canReach}). */
    public static final String TARGET = PREFIX + "/target";
    /** Per connection: {@code PREFIX/s/TOKEN/up}, {@code .../down}, {@code .../ws}. */
    public static final String SESSION = PREFIX + "/s/";

    /** Response header: the stream offset of the first byte of a poll response's body. */
    public static final String OFFSET = "x-sj-offset";
    /** Response header: the stream ends after this body. */
    public static final String FIN = "x-sj-fin";
    /** Relay listen response header: the port the relay gave a listener that asked for port 0. */
    public static final String PORT = "x-sj-port";
    /**
     * Relay listen response header of a 401: the nonce over which a registering server proves the relay's
     * listen key ({@link ListenProof}).
     */
    public static final String NONCE = "x-sj-nonce";
    /**
     * Starts a line of the relay's listen answer after a token, to a server that proved a listen key:
     * {@code from ADDRESS MAC}, where the requester's connection came from, vouched for under the key
     * ({@link ListenProof#from}). Not a token, so a server that does not know it skips it.
     */
    public static final String FROM_LINE = "from ";
    /**
     * Response header of {@code open}, {@code connect} and {@code listen}: the wire version the server
     * speaks (absent: 1). A client uses what both speak.
     */
    public static final String WIRE = "x-sj-wire";
    /**
     * The wire version of this implementation. 2: an upload that carries {@code ack=N} is also a poll
     * (answered with the bytes waiting for the client, at once or when they come), so that a long-polling
     * exchange takes one request instead of an upload and a poll.
     */
    public static final int VERSION = 2;

    /** WebSocket message kind (first byte of a binary message): stream bytes follow. */
    public static final byte WS_DATA = 0;
    /** WebSocket message kind: the sender's stream ends (nothing follows). */
    public static final byte WS_FIN = 1;
    /** WebSocket message kind: the connection failed; a UTF-8 reason follows. */
    public static final byte WS_ERROR = 2;

    /** Payloads up to this size are copied behind their kind byte into one buffer ({@link #wsData}). */
    static final int WS_COPY_LIMIT = 1024;
    /** The kind byte of a data message, shared (read-only, never released) by every large one. */
    private static final ByteBuf WS_DATA_KIND = Unpooled.unreleasableBuffer(
            Unpooled.wrappedBuffer(new byte[] {WS_DATA}).asReadOnly());

    /**
     * Headers of the messages this side builds and of the responses a client decodes: the names and
     * values we set are constants and numbers, and a client reads only a few headers of a response
     * (parsed strictly), so Netty's check of every header name and value (a scan per header per
     * message) is skipped. A server still validates the requests it decodes (its own codec's default).
     */
    static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);
    /** The trailers of those messages (never any). */
    static final HttpHeadersFactory TRAILERS = DefaultHttpHeadersFactory.trailersFactory().withValidation(false);

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int TOKEN_BYTES = 16;

    private Wire() {
    }

    /** A new unguessable token: 32 hex digits. */
    public static String newToken() {
        byte[] bytes = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Whether {@code text} has the form of a token (so that garbage never reaches a lookup). */
    public static boolean isToken(String text) {
        if (text.length() != 2 * TOKEN_BYTES) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /**
     * The payload of a WebSocket data message: {@link #WS_DATA}, then {@code bytes} (taken over). Up to
     * {@link #WS_COPY_LIMIT} bytes are copied behind the kind byte into one pooled buffer (Netty's frame
     * encoder copies a payload that small into the frame anyway); a larger payload travels as it is
     * behind the shared kind byte. Before, every message built a byte array, a buffer around it and a
     * composite of the two.
     */
    static ByteBuf wsData(ByteBufAllocator alloc, ByteBuf bytes) {
        int length = bytes.readableBytes();
        if (length <= WS_COPY_LIMIT) {
            ByteBuf message = alloc.buffer(1 + length).writeByte(WS_DATA).writeBytes(bytes, bytes.readerIndex(), length);
            bytes.release();
            return message;
        }
        return alloc.compositeBuffer(2).addComponents(true, WS_DATA_KIND.duplicate(), bytes);
    }

    /** The path of operation {@code op} ("up", "down", "ws") on connection {@code token}. */
    public static String sessionPath(String token, String op) {
        return SESSION + token + "/" + op;
    }

    /** The single value of query parameter {@code name}, or null. */
    public static String param(QueryStringDecoder query, String name) {
        List<String> values = query.parameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** A non-negative long query parameter, or -1 if missing or malformed. */
    public static long longParam(QueryStringDecoder query, String name) {
        String value = param(query, name);
        return value == null ? -1 : digits(value, 0, value.length());
    }

    /**
     * The path of a request URI as sent (before {@code ?} or {@code #}, not percent-decoded): the
     * per-message requests ({@code up}, {@code down}) are read with this and {@link #rawLongParam}, not a
     * {@link QueryStringDecoder}, which built a map, lists and decoded strings for every request.
     */
    public static String rawPath(String uri) {
        int end = pathEnd(uri);
        return end == uri.length() ? uri : uri.substring(0, end);
    }

    /** Whether the path of {@code uri} (as sent) starts with {@code prefix}. */
    static boolean rawPathStartsWith(String uri, String prefix) {
        return uri.startsWith(prefix) && pathEnd(uri) >= prefix.length();
    }

    /**
     * Query parameter {@code name} of {@code uri} as a non-negative long, read from the URI as sent
     * (the first occurrence, as {@link #param}; digits only, so percent-decoding never matters), or -1
     * if missing or malformed.
     */
    public static long rawLongParam(String uri, String name) {
        long at = findRaw(uri, name);
        return at < 0 ? -1 : digits(uri, (int) (at >>> 32), (int) at);
    }

    /** Whether query parameter {@code name} of {@code uri} (as sent) is exactly {@code 1}. */
    public static boolean rawFlag(String uri, String name) {
        long at = findRaw(uri, name);
        return at >= 0 && (int) at - (int) (at >>> 32) == 1 && uri.charAt((int) (at >>> 32)) == '1';
    }

    /**
     * Where the value of the first parameter {@code name} of {@code uri}'s query is: its start in the
     * high and its end in the low 32 bits; -1 if absent. Pairs are separated by {@code &} or {@code ;}
     * (as {@link QueryStringDecoder} does); a name without {@code =} has an empty value.
     */
    private static long findRaw(String uri, String name) {
        int q = uri.indexOf('?');
        if (q < 0) {
            return -1;
        }
        int end = uri.indexOf('#', q);
        if (end < 0) {
            end = uri.length();
        }
        int i = q + 1;
        while (i < end) {
            int next = i;
            while (next < end && uri.charAt(next) != '&' && uri.charAt(next) != ';') {
                next++;
            }
            int nameEnd = i + name.length();
            if (nameEnd <= next && uri.startsWith(name, i)) {
                if (nameEnd == next) {
                    return (long) next << 32 | next;
                }
                if (uri.charAt(nameEnd) == '=') {
                    return (long) (nameEnd + 1) << 32 | next;
                }
            }
            i = next + 1;
        }
        return -1;
    }

    /**
     * The operation named by {@code uri} from {@code from} to {@code to}: the shared constant for
     * {@code up}, {@code down} and {@code ws} (no string per request), else a new string.
     */
    static String op(String uri, int from, int to) {
        for (String known : OPS) {
            if (to - from == known.length() && uri.startsWith(known, from)) {
                return known;
            }
        }
        return uri.substring(from, to);
    }

    private static final String[] OPS = {"up", "down", "ws"};

    /** Where the path of {@code uri} ends (at {@code ?}, {@code #} or the end). */
    static int pathEnd(String uri) {
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '?' || c == '#') {
                return i;
            }
        }
        return uri.length();
    }

    private static long digits(CharSequence text, int from, int to) {
        if (to <= from || to - from > 18) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * The body of a 400 answer to a request the HTTP decoder could not parse: what was expected and what
     * was found, in words (the decoder's message), never the class name of its exception, which says
     * nothing to a client and something about this side.
     */
    public static String malformedRequest(Throwable cause) {
        String message = cause == null ? null : cause.getMessage();
        String found = message == null || message.isBlank() ? "bytes that do not parse as one" : message.strip();
        if (cause instanceof NumberFormatException) {
            found = "a length or chunk size that is not a number (" + found + ")";
        }
        return "malformed HTTP request (expected an HTTP/1.1 request line, headers, and a body of its Content-Length"
                + " or in well-formed chunks); found " + found;
    }

    /** A response with a plain-text body (errors and tokens). */
    public static FullHttpResponse text(HttpVersion version, HttpResponseStatus status, String body) {
        ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(version, status, content, HEADERS, TRAILERS);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        return response;
    }

    /** {@code response} with the {@link #WIRE} header (for the answers that start a connection). */
    public static FullHttpResponse versioned(FullHttpResponse response) {
        response.headers().setInt(WIRE, VERSION);
        return response;
    }

    /** The wire version a server's answer names (1 when it names none, or nonsense). */
    public static int versionOf(FullHttpResponse response) {
        String value = response.headers().get(WIRE);
        if (value == null) {
            return 1;
        }
        try {
            return Math.max(1, Integer.parseInt(value.strip()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** A response with a binary body. */
    public static FullHttpResponse bytes(HttpVersion version, ByteBuf content) {
        FullHttpResponse response = new DefaultFullHttpResponse(version, HttpResponseStatus.OK, content, HEADERS, TRAILERS);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        return response;
    }

    /** An empty response with {@code status} (204 for "nothing new"). */
    public static FullHttpResponse empty(HttpVersion version, HttpResponseStatus status) {
        FullHttpResponse response = new DefaultFullHttpResponse(version, status, Unpooled.EMPTY_BUFFER, HEADERS, TRAILERS);
        if (status.code() != 204) {
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        }
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        return response;
    }
}
