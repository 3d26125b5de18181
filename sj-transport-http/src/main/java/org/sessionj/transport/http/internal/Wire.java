package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
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
        if (value == null || value.isEmpty() || value.length() > 18) {
            return -1;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(value);
    }

    /** A response with a plain-text body (errors and tokens). */
    public static FullHttpResponse text(HttpVersion version, HttpResponseStatus status, String body) {
        ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(version, status, content);
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
        FullHttpResponse response = new DefaultFullHttpResponse(version, HttpResponseStatus.OK, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        return response;
    }

    /** An empty response with {@code status} (204 for "nothing new"). */
    public static FullHttpResponse empty(HttpVersion version, HttpResponseStatus status) {
        FullHttpResponse response = new DefaultFullHttpResponse(version, status, Unpooled.EMPTY_BUFFER);
        if (status.code() != 204) {
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        }
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        return response;
    }
}
