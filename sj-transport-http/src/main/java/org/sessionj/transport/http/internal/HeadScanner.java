package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;

/**
 * Scans the head of an HTTP/1.1 message (start line and header lines) in place in a {@link ByteBuf},
 * for the lean codecs ({@link LeanRequestDecoder}, {@link LeanResponseDecoder}): no string per header,
 * no header map. Strict: lines end in CRLF, header names are tokens, values are visible ASCII, spaces
 * and tabs; anything else (a bare LF, a folded line, a control or non-ASCII byte, a line or head over
 * its limit, too many headers) is {@link #UNUSUAL}, and the caller hands the connection to Netty's
 * codec, which knows every corner of the protocol and answers what it refuses.
 */
final class HeadScanner {
    /** More bytes are needed to decide. */
    static final int NEED_MORE = -1;
    /** Not something the lean codec takes: hand the bytes to Netty's codec. */
    static final int UNUSUAL = -2;

    /** The longest start line (the same bound as the Netty codecs' initial line). */
    static final int MAX_START_LINE = 4096;
    /** The most bytes of header lines, including the empty line (the Netty codecs' header bound). */
    static final int MAX_HEADER_BYTES = 8192;
    /** The most header lines (ours send 2 or 3; a proxy adds a few). */
    static final int MAX_HEADERS = 64;

    /** Receives the header lines of a head; returns false for a header the lean codec does not take. */
    interface Sink {
        /**
         * One header: the name is {@code [name, nameEnd)}, the value (without surrounding spaces)
         * {@code [value, valueEnd)}, absolute indices in {@code buf}.
         */
        boolean header(ByteBuf buf, int name, int nameEnd, int value, int valueEnd);
    }

    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private HeadScanner() {
    }

    /**
     * The index of the LF that ends the line starting at {@code from} (the CR before it is part of
     * the ending), searching up to {@code limit} (exclusive); {@link #NEED_MORE} if there is none yet
     * and {@code limit} is the end of the readable bytes, {@link #UNUSUAL} for a bare LF or a line
     * longer than {@code maxLine} bytes.
     */
    static int lineEnd(ByteBuf buf, int from, int end, int maxLine) {
        int limit = Math.min(end, from + maxLine + 2);
        int lf = buf.indexOf(from, limit, (byte) '\n');
        if (lf < 0) {
            return limit < end || end - from >= maxLine + 2 ? UNUSUAL : NEED_MORE;
        }
        if (lf == from || buf.getByte(lf - 1) != '\r') {
            return UNUSUAL;
        }
        return lf;
    }

    /**
     * Scans the header lines from {@code from} up to the empty line that ends the head, handing each
     * to {@code sink}: the index after the head, or {@link #NEED_MORE} / {@link #UNUSUAL}.
     */
    static int headers(ByteBuf buf, int from, int end, Sink sink) {
        int pos = from;
        int count = 0;
        while (true) {
            int budget = MAX_HEADER_BYTES - (pos - from);
            if (budget < 2) {
                return UNUSUAL;
            }
            int lf = lineEnd(buf, pos, end, budget - 2);
            if (lf < 0) {
                return lf;
            }
            int cr = lf - 1;
            if (cr == pos) {
                return lf + 1;
            }
            if (++count > MAX_HEADERS) {
                return UNUSUAL;
            }
            int colon = -1;
            for (int i = pos; i < cr; i++) {
                byte b = buf.getByte(i);
                if (b == ':') {
                    colon = i;
                    break;
                }
                if (b < 0 || !TCHAR[b]) {
                    return UNUSUAL; // also a folded line (leading space) and a space before the colon
                }
            }
            if (colon <= pos) {
                return UNUSUAL;
            }
            int value = colon + 1;
            while (value < cr && isSpace(buf.getByte(value))) {
                value++;
            }
            int valueEnd = cr;
            while (valueEnd > value && isSpace(buf.getByte(valueEnd - 1))) {
                valueEnd--;
            }
            for (int i = value; i < valueEnd; i++) {
                byte b = buf.getByte(i);
                if (b < 0x20 && b != '\t' || b == 0x7f) {
                    return UNUSUAL; // bytes >= 0x80 are negative here: non-ASCII is unusual too
                }
            }
            if (!sink.header(buf, pos, colon, value, valueEnd)) {
                return UNUSUAL;
            }
            pos = lf + 1;
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t';
    }

    /** Whether {@code [from, to)} is {@code lower} (a lower-case ASCII name), ignoring ASCII case. */
    static boolean is(ByteBuf buf, int from, int to, String lower) {
        if (to - from != lower.length()) {
            return false;
        }
        for (int i = 0; i < lower.length(); i++) {
            int b = buf.getByte(from + i);
            if (b >= 'A' && b <= 'Z') {
                b += 'a' - 'A';
            }
            if (b != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code [from, to)} is exactly {@code ascii} (case matters). */
    static boolean exactly(ByteBuf buf, int from, int to, String ascii) {
        if (to - from != ascii.length()) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (buf.getByte(from + i) != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** {@code [from, to)} as a non-negative decimal of 1 to 18 digits, or -1. */
    static long digits(ByteBuf buf, int from, int to) {
        if (to <= from || to - from > 18) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            byte b = buf.getByte(i);
            if (b < '0' || b > '9') {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    /** What a Connection header's value says. */
    static final int CONNECTION_OTHER = 0;
    /** It lists {@code close}. */
    static final int CONNECTION_CLOSE = 1;
    /** It lists {@code keep-alive}. */
    static final int CONNECTION_KEEP_ALIVE = 2;
    /** It lists {@code upgrade} (a WebSocket: Netty's codec). */
    static final int CONNECTION_UPGRADE = 4;

    /** The options a Connection header's comma-separated value lists (bits of the constants above). */
    static int connection(ByteBuf buf, int from, int to) {
        int options = CONNECTION_OTHER;
        int start = from;
        for (int i = from; i <= to; i++) {
            if (i == to || buf.getByte(i) == ',') {
                int s = start;
                int e = i;
                while (s < e && isSpace(buf.getByte(s))) {
                    s++;
                }
                while (e > s && isSpace(buf.getByte(e - 1))) {
                    e--;
                }
                if (is(buf, s, e, "close")) {
                    options |= CONNECTION_CLOSE;
                } else if (is(buf, s, e, "keep-alive")) {
                    options |= CONNECTION_KEEP_ALIVE;
                } else if (is(buf, s, e, "upgrade")) {
                    options |= CONNECTION_UPGRADE;
                }
                start = i + 1;
            }
        }
        return options;
    }

    /** Whether {@code [from, to)} is {@code HTTP/1.1} (1) or {@code HTTP/1.0} (0); -1 otherwise. */
    static int version(ByteBuf buf, int from, int to) {
        if (exactly(buf, from, to, "HTTP/1.1")) {
            return 1;
        }
        return exactly(buf, from, to, "HTTP/1.0") ? 0 : -1;
    }
}
