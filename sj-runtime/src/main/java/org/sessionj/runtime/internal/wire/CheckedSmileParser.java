package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.JsonReadContext;
import com.fasterxml.jackson.core.sym.ByteQuadsCanonicalizer;
import com.fasterxml.jackson.dataformat.smile.SmileParser;
import java.io.IOException;
import java.util.Locale;

/**
 * Jackson's Smile parser, with two checks on the bytes of each token a peer sent, made as the token is
 * reached (before any deserializer sees it, whether it is read or skipped):
 *
 * <ul>
 *   <li>text (a string value or a key, short or long form) is well-formed UTF-8, and ASCII where its token
 *       says ASCII (hostile18 H5): Jackson decodes Smile text leniently — an overlong {@code C0 80} became
 *       U+0000, a lead byte without its continuation another letter, {@code ED A0 80} a lone surrogate,
 *       {@code FF} in an ASCII token U+FFFD — so the rule the {@code 0x10} strings keep (hostile17 H7) was
 *       bypassed by every Smile message. A back-reference to a string or key seen earlier in the value is
 *       not checked again: what it refers to was;</li>
 *   <li>a {@code BigDecimal}'s scale is within {@code sessionj.codec.maxNumberScale} (hostile18 H6): seven
 *       bytes say {@code 1E+100000}, a value whose every use as a number (its {@code BigInteger}, a sum, its
 *       plain text) materialises 100,001 digits. The scale is read from its varint, before any
 *       {@code BigDecimal} exists.</li>
 * </ul>
 *
 * <p>The bytes are read where the parser's own buffer holds them: this parser is only made over a whole
 * value in one array ({@link CheckedSmileFactory}), so a token's bytes are all there (a token cut short by
 * the end is left to Jackson, which reports it truncated). A failure is a {@link Refused} with the path to the
 * part from the parser's own context (the mapper's path misses the innermost link: it reads a value's token
 * before it knows which property it is for; the parser counts each array's values for it); {@link CodecFailures}
 * words it.
 * Costs no allocation: one pass over the bytes of each text token that is not a back-reference.
 */
final class CheckedSmileParser extends SmileParser {
    /** Smile's end-of-string marker for the long text forms (a byte no UTF-8 text holds). */
    private static final int END_OF_STRING = 0xFC;

    /** An object's keys compared one by one; one with more gets a set ({@link #trackKeys}). */
    private static final int SCAN_KEYS = 8;
    /** Until the value's first object: a value without one (a list of numbers) allocates nothing for keys. */
    private static final String[] NO_KEYS = {};
    private static final int[] NO_STARTS = {};

    private final int maxScale;
    /** The keys of the objects open, outermost first; those of the object at depth d from {@code keyStart[d]}. */
    private String[] keys = NO_KEYS;
    private int keyCount;
    private int[] keyStart = NO_STARTS;
    /** The key sets of open objects with more than {@value #SCAN_KEYS} keys, by depth; null until one has. */
    private java.util.Set<String>[] keySets;
    /** The offset of the last token seen: the name methods may fall back to {@link #nextToken}. */
    private int checkedAt = -1;

    CheckedSmileParser(IOContext context, int parserFeatures, int smileFeatures, ObjectCodec codec,
            ByteQuadsCanonicalizer symbols, byte[] data, int start, int end, int maxScale) {
        super(context, parserFeatures, smileFeatures, codec, symbols, null, data, start, end, false);
        this.maxScale = maxScale;
    }

    /** Reads the Smile header at the start (the factory's part of what Jackson's bootstrapper does). */
    boolean readHeader() throws IOException {
        return handleSignature(true, true);
    }

    @Override
    public JsonToken nextToken() throws IOException {
        JsonToken token = super.nextToken();
        check(token);
        return token;
    }

    @Override
    public String nextFieldName() throws IOException {
        String name = super.nextFieldName();
        check(_currToken);
        return name;
    }

    @Override
    public boolean nextFieldName(SerializableString expected) throws IOException {
        boolean matched = super.nextFieldName(expected);
        check(_currToken);
        return matched;
    }

    @Override
    public String nextTextValue() throws IOException {
        String text = super.nextTextValue();
        check(_currToken);
        return text;
    }

    private void check(JsonToken token) throws IOException {
        int at = _tokenOffsetForTotal;
        if (token == null || at == checkedAt) {
            return;
        }
        checkedAt = at;
        countInArray(token);
        if (token == JsonToken.START_OBJECT || token == JsonToken.END_OBJECT || token == JsonToken.FIELD_NAME) {
            trackKeys(token);
        }
        if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME
                || token == JsonToken.VALUE_NUMBER_FLOAT) {
            if (at < _inputEnd) {
                int type = _inputBuffer[at] & 0xFF;
                if (token == JsonToken.VALUE_STRING) {
                    checkValueText(type, at + 1);
                } else if (token == JsonToken.FIELD_NAME) {
                    checkName(type, at + 1);
                } else if (type == 0x2A) { // BigDecimal: zigzag varint scale, varint length, magnitude
                    checkScale(at + 1);
                }
            }
        }
    }

    /**
     * Counts a value in the array that holds it, for the path of a refusal: Smile's parser keeps no index
     * (JSON's counts its commas), and the mapper's path misses the innermost link. One increment per value.
     */
    private void countInArray(JsonToken token) {
        JsonReadContext context = _streamReadContext;
        if (token == JsonToken.START_ARRAY || token == JsonToken.START_OBJECT) {
            context = context.getParent(); // the value's own context was just opened
        } else if (token == JsonToken.END_ARRAY || token == JsonToken.END_OBJECT || token == JsonToken.FIELD_NAME) {
            return;
        }
        if (context != null && context.inArray()) {
            context.expectComma();
        }
    }

    /**
     * Refuses a key twice in one object (hostile H7: read last-wins, a proxy or log reading the first would see
     * another value than the program). Jackson's own detector ({@code STRICT_DUPLICATE_DETECTION}) made a detector
     * per object and a hash set from its third key on, some 38 ns per decoded bean (+20 % on the bean benchmark,
     * docs/benchmarks.md); here the keys of the open objects share one array and an object's key is compared
     * with its earlier ones, up to {@value #SCAN_KEYS} of them, before a set is made for it.
     */
    private void trackKeys(JsonToken token) throws IOException {
        if (token == JsonToken.START_OBJECT) {
            int depth = _streamReadContext.getNestingDepth();
            if (depth >= keyStart.length) {
                keyStart = java.util.Arrays.copyOf(keyStart, Math.max(8, depth * 2));
            }
            keyStart[depth] = keyCount;
            if (keySets != null && depth < keySets.length) {
                keySets[depth] = null;
            }
            return;
        }
        if (token == JsonToken.END_OBJECT) {
            int depth = _streamReadContext.getNestingDepth() + 1; // the object that ended
            if (depth < keyStart.length) {
                keyCount = keyStart[depth];
            }
            return;
        }
        String name = _streamReadContext.getCurrentName();
        int depth = _streamReadContext.getNestingDepth();
        if (name == null || depth >= keyStart.length) {
            return;
        }
        java.util.Set<String> set = keySets == null || depth >= keySets.length ? null : keySets[depth];
        if (set != null) {
            if (!set.add(name)) {
                throw duplicate(name);
            }
            return;
        }
        int start = keyStart[depth];
        for (int i = start; i < keyCount; i++) {
            if (keys[i].equals(name)) {
                throw duplicate(name);
            }
        }
        if (keyCount - start == SCAN_KEYS) { // a large object (a map): a set from here on
            set = new java.util.HashSet<>();
            for (int i = start; i < keyCount; i++) {
                set.add(keys[i]);
            }
            set.add(name);
            keyCount = start;
            if (keySets == null || depth >= keySets.length) {
                keySets = java.util.Arrays.copyOf(keySets == null ? newSets(0) : keySets, Math.max(8, depth * 2));
            }
            keySets[depth] = set;
            return;
        }
        if (keyCount == keys.length) {
            keys = java.util.Arrays.copyOf(keys, Math.max(16, keyCount * 2));
        }
        keys[keyCount++] = name;
    }

    @SuppressWarnings("unchecked")
    private static java.util.Set<String>[] newSets(int length) {
        return (java.util.Set<String>[]) new java.util.Set<?>[length];
    }

    private Refused duplicate(String name) {
        return refused("Duplicate field '" + PeerText.escaped(name.length() <= 40 ? name : name.substring(0, 39) + "…")
                + "': a key twice in one object");
    }

    /** A string value's bytes, from its type byte (value mode). */
    private void checkValueText(int type, int from) throws IOException {
        if (type >= 0x40 && type < 0x80) { // tiny ASCII (1-32 bytes), short ASCII (33-64)
            checkShortText(from, (type & 0x1F) + (type < 0x60 ? 1 : 33), true);
        } else if (type >= 0x80 && type < 0xC0) { // tiny Unicode (2-33 bytes), short Unicode (34-65)
            checkShortText(from, (type & 0x1F) + (type < 0xA0 ? 2 : 34), false);
        } else if (type == 0xE0) { // long ASCII, up to the end marker
            checkLongText(from, true);
        } else if (type == 0xE4) { // long Unicode, up to the end marker
            checkLongText(from, false);
        }
        // else: the empty string, or a back-reference to a string value checked where it first appeared
    }

    /** A key's bytes, from its type byte (key mode). */
    private void checkName(int type, int from) throws IOException {
        if (type >= 0x80 && type < 0xC0) { // short ASCII name, 1-64 bytes
            checkShortText(from, (type & 0x3F) + 1, true);
        } else if (type >= 0xC0 && type < 0xF8) { // short Unicode name, 2-57 bytes
            checkShortText(from, (type & 0x3F) + 2, false);
        } else if (type == 0x34) { // long Unicode name, up to the end marker
            checkLongText(from, false);
        }
        // else: the empty key, or a back-reference to a key checked where it first appeared
    }

    /**
     * Short text, {@code length} bytes from {@code from} (the length is in its type byte): only bytes below 0x80
     * where the token says ASCII, else well-formed UTF-8.
     */
    private void checkShortText(int from, int length, boolean ascii) throws IOException {
        int end = from + length;
        if (end > _inputEnd) {
            return; // cut short: Jackson reports it
        }
        int bad = ascii ? firstNotAscii(from, end) : firstNotUtf8(from, end);
        if (bad >= 0) {
            throw notUtf8(from, bad, length, ascii ? 1 : Math.min(4, end - bad), ascii ? "in text marked ASCII" : "");
        }
    }

    /** The index of the first byte in {@code [from, end)} of 0x80 or above, or -1. */
    private int firstNotAscii(int from, int end) {
        for (int i = from; i < end; i++) {
            if (_inputBuffer[i] < 0) {
                return i;
            }
        }
        return -1;
    }

    /** Long text: its bytes up to the end marker (which no UTF-8 text holds), which must be there. */
    private void checkLongText(int from, boolean ascii) throws IOException {
        int i = from;
        while (i < _inputEnd && _inputBuffer[i] >= 0) {
            i++;
        }
        if (ascii) {
            if (i < _inputEnd && (_inputBuffer[i] & 0xFF) != END_OF_STRING) {
                throw notUtf8(from, i, -1, 1, "in text marked ASCII");
            }
            return;
        }
        int end = i;
        while (end < _inputEnd && (_inputBuffer[end] & 0xFF) != END_OF_STRING) {
            end++;
        }
        if (end == _inputEnd) {
            return; // no end marker: Jackson reports it
        }
        int bad = firstNotUtf8(i, end);
        if (bad >= 0) {
            throw notUtf8(from, bad, end - from, Math.min(4, end - bad), "");
        }
    }

    /**
     * The index of the first byte in {@code [from, end)} that starts no well-formed UTF-8 character
     * (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF), or -1.
     */
    private int firstNotUtf8(int from, int end) {
        byte[] b = _inputBuffer;
        int i = from;
        while (i < end) {
            int c = b[i];
            if (c >= 0) {
                i++;
                continue;
            }
            c &= 0xFF;
            int need;
            int min = 0x80;
            int max = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                if (c == 0xE0) {
                    min = 0xA0; // below: an overlong form
                } else if (c == 0xED) {
                    max = 0x9F; // above: a surrogate
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                if (c == 0xF0) {
                    min = 0x90;
                } else if (c == 0xF4) {
                    max = 0x8F; // above: past U+10FFFF
                }
            } else {
                return i; // a continuation byte, C0/C1 (overlong), F5-FF
            }
            if (i + need >= end) {
                return i; // cut short by the end of the text
            }
            int second = b[i + 1] & 0xFF;
            if (second < min || second > max) {
                return i;
            }
            for (int k = 2; k <= need; k++) {
                if ((b[i + k] & 0xC0) != 0x80) {
                    return i;
                }
            }
            i += need + 1;
        }
        return -1;
    }

    /** The failure for the current token: its path, and what is wrong. */
    private Refused refused(String what) {
        StringBuilder path = new StringBuilder();
        JsonStreamContext context = getParsingContext();
        // a key that is refused is no part of the path: the path is to its object
        if (_currToken == JsonToken.FIELD_NAME && context != null) {
            context = context.getParent();
        }
        for (; context != null && !context.inRoot(); context = context.getParent()) {
            if (context.inArray()) {
                path.insert(0, "[" + context.getCurrentIndex() + "]");
            } else if (context.getCurrentName() != null) {
                String name = PeerText.escaped(context.getCurrentName());
                path.insert(0, "." + (name.length() <= 40 ? name : name.substring(0, 39) + "…"));
            }
        }
        return new Refused(this, what, path.toString());
    }

    /** A token of the peer's value refused, with the path to it ({@code .orders[2].note}; empty at the top). */
    static final class Refused extends JsonParseException {
        private static final long serialVersionUID = 1L;

        /** The path to the refused part, in {@link CodecFailures}' form. */
        final String path;

        Refused(CheckedSmileParser parser, String what, String path) {
            super(parser, what);
            this.path = path;
        }
    }

    private Refused notUtf8(int textFrom, int at, int length, int shown, String where) {
        StringBuilder found = new StringBuilder();
        for (int i = at; i < Math.min(_inputEnd, at + shown); i++) {
            found.append(String.format(Locale.ROOT, "%02X", _inputBuffer[i] & 0xFF));
        }
        return refused("text that is not UTF-8: byte " + (at - textFrom)
                + (length < 0 ? "" : " of " + length) + " (0x" + found + ") starts no UTF-8 character"
                + (where.isEmpty() ? "" : " " + where));
    }

    /** A BigDecimal's scale, a zigzag varint of at most 5 bytes (the last has its high bit set). */
    private void checkScale(int from) throws IOException {
        long raw = 0;
        for (int i = from; i < Math.min(_inputEnd, from + 5); i++) {
            int b = _inputBuffer[i] & 0xFF;
            if ((b & 0x80) != 0) {
                raw = (raw << 6) | (b & 0x3F);
                long scale = (raw >>> 1) ^ -(raw & 1);
                if (scale > maxScale || scale < -maxScale) {
                    throw refused(DecodeLimits.scaleRefused(scale, maxScale));
                }
                return;
            }
            raw = (raw << 7) | b;
        }
        // a varint longer than a scale has, or cut short: Jackson reports it
    }
}
