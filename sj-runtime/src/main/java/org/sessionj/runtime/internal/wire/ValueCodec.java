package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import org.sessionj.runtime.spi.Frame;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes and reads the bodies of message items (docs/wire-format.md): primitives raw big-endian,
 * strings and primitive arrays with a length, other values as length-prefixed Jackson Smile. Reads
 * check every length against what the frame holds, so garbage fails cleanly.
 */
public final class ValueCodec {
    /** The length written for a null string, array or object. */
    public static final int NULL_LENGTH = -1;

    private ValueCodec() {
    }

    /** Reads the body of a primitive item as its boxed value, checking it is all there. */
    public static Object readPrimitive(WireKind kind, Frame in) throws MalformedInputException {
        if (in.readableBytes() < kind.size()) {
            throw new MalformedInputException("truncated frame: a " + kind.typeName() + " needs " + kind.size()
                    + " bytes, " + in.readableBytes() + " left");
        }
        return switch (kind) {
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case DOUBLE -> in.readDouble();
            case FLOAT -> in.readFloat();
            case BOOLEAN -> in.readBoolean();
            case BYTE -> in.readByte();
            case SHORT -> in.readShort();
            case CHAR -> in.readChar();
            default -> throw new IllegalArgumentException("not a primitive kind: " + kind);
        };
    }

    public static void writeString(Frame out, String value) {
        if (value == null) {
            out.writeInt(NULL_LENGTH);
            return;
        }
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        int written = writeUtf8(out, value);
        out.setInt(lengthAt, written);
    }

    /**
     * Writes a message's text (a {@code String} message, a flat record's string component) as
     * {@link #writeString} does, refusing text that UTF-8 cannot carry: a lone half of a surrogate pair
     * became {@code '?'} on the way (adv15 A22: {@code "x\uD800y"} arrived as {@code "x?y"}), while the
     * same string inside a list failed the send in the codec's words. Nothing is written then.
     *
     * @throws UnencodableValueException for an unpaired surrogate, naming it and its index
     */
    public static void writeText(Frame out, String value) {
        if (value == null) {
            out.writeInt(NULL_LENGTH);
            return;
        }
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        int written = writeUtf8(out, value, true);
        out.setInt(lengthAt, written);
    }

    /**
     * Throws {@link UnencodableValueException} when {@code value} holds, from {@code from} on, a surrogate that
     * is not half of a pair.
     */
    static void checkSurrogates(String value, int from) {
        for (int i = from, n = value.length(); i < n; i++) {
            char c = value.charAt(i);
            if (c < Character.MIN_SURROGATE) {
                continue; // the common case: one comparison per character
            }
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new UnencodableValueException(CodecFailures.unpairedSurrogate(c, i));
            }
        }
    }

    public static String readString(Frame in) throws MalformedInputException {
        int length = readLength(in, 1, "string");
        return length == NULL_LENGTH ? null : readUtf8(in, length);
    }

    /** Writes a label or other short text (unsigned short length). */
    public static void writeShortString(Frame out, String value) {
        int lengthAt = out.writerIndex();
        out.writeShort(0);
        int written = writeUtf8(out, value);
        if (written > 0xffff) {
            throw new IllegalArgumentException("text longer than 65535 bytes: " + value.substring(0, 40) + "...");
        }
        out.setShort(lengthAt, written);
    }

    public static String readShortString(Frame in) throws MalformedInputException {
        if (in.readableBytes() < 2) {
            throw new MalformedInputException("truncated frame: a text length needs 2 bytes, " + in.readableBytes() + " left");
        }
        int length = in.readUnsignedShort();
        if (length > in.readableBytes()) {
            throw new MalformedInputException("truncated frame: text of " + length + " bytes, " + in.readableBytes() + " left");
        }
        return readUtf8(in, length);
    }

    /*
     * Text is encoded here rather than with Frame.writeCharSequence/readCharSequence: those go through
     * Netty's ByteBufUtil, whose class initialiser creates Netty's default pooled allocator (some 60
     * classes and its thread caches) even when every frame is a plain heap buffer, as on the in-JVM path;
     * the first session of a fresh JVM paid for that. Same bytes: UTF-8, an unpaired surrogate written
     * as '?' and malformed input read as U+FFFD, as Netty and String do.
     */

    /** Appends {@code value} as UTF-8; the number of bytes written. */
    static int writeUtf8(Frame out, String value) {
        return writeUtf8(out, value, false);
    }

    /** {@code strict}: refuse an unpaired surrogate ({@link #writeText}) rather than write it as {@code '?'}. */
    private static int writeUtf8(Frame out, String value, boolean strict) {
        int n = value.length();
        int ascii = 0;
        while (ascii < n && value.charAt(ascii) < 0x80) {
            ascii++;
        }
        if (ascii == n) {
            out.ensureWritable(n);
            if (out.hasArray()) {
                byte[] array = out.array();
                int at = out.arrayOffset() + out.writerIndex();
                for (int i = 0; i < n; i++) {
                    array[at + i] = (byte) value.charAt(i);
                }
                out.writerIndex(out.writerIndex() + n);
            } else {
                for (int i = 0; i < n; i++) {
                    out.writeByte(value.charAt(i));
                }
            }
            return n;
        }
        if (strict) {
            checkSurrogates(value, ascii); // only text past ASCII can hold one: an ASCII string costs nothing more
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(bytes);
        return bytes.length;
    }

    /**
     * Reads {@code length} bytes of UTF-8 (the caller checked that they are there). Bytes that are not UTF-8
     * are refused (hostile H7: they became U+FFFD and the session went on with text the peer never had): a
     * decoded U+FFFD is checked against the bytes, which costs nothing for text without one (a Latin-1
     * string cannot hold it, and the JDK decodes ASCII and valid UTF-8 in one pass as before).
     */
    static String readUtf8(Frame in, int length) throws MalformedInputException {
        byte[] array;
        int offset;
        if (in.hasArray()) {
            array = in.array();
            offset = in.arrayOffset() + in.readerIndex();
        } else {
            array = new byte[length];
            in.getBytes(in.readerIndex(), array);
            offset = 0;
        }
        String text = new String(array, offset, length, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') >= 0) {
            checkUtf8(array, offset, length);
        }
        in.skipBytes(length);
        return text;
    }

    /** Refuses {@code length} bytes at {@code offset} unless they are UTF-8 (a U+FFFD written as EF BF BD is). */
    private static void checkUtf8(byte[] array, int offset, int length) throws MalformedInputException {
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(array, offset, length);
        java.nio.charset.CoderResult result = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .decode(bytes, java.nio.CharBuffer.allocate(length), true);
        if (result.isError()) {
            int at = bytes.position() - offset;
            StringBuilder found = new StringBuilder();
            for (int i = at; i < Math.min(length, at + result.length()); i++) {
                found.append(String.format("%02X", array[offset + i] & 0xff));
            }
            throw new MalformedInputException("text that is not UTF-8: byte " + at + " of " + length + " (0x" + found
                    + ") starts no UTF-8 character");
        }
    }

    /** Writes a primitive array (given as an Object of the right array class) raw, with its length. */
    public static void writeArray(Frame out, WireKind kind, Object array) {
        if (array == null) {
            out.writeInt(NULL_LENGTH);
            return;
        }
        switch (kind) {
            case BOOLEAN_ARRAY -> {
                boolean[] a = (boolean[]) array;
                out.writeInt(a.length);
                for (boolean v : a) {
                    out.writeBoolean(v);
                }
            }
            case BYTE_ARRAY -> {
                byte[] a = (byte[]) array;
                out.writeInt(a.length);
                out.writeBytes(a);
            }
            case SHORT_ARRAY -> {
                short[] a = (short[]) array;
                out.ensureWritable(4 + 2 * a.length);
                out.writeInt(a.length);
                for (short v : a) {
                    out.writeShort(v);
                }
            }
            case CHAR_ARRAY -> {
                char[] a = (char[]) array;
                out.ensureWritable(4 + 2 * a.length);
                out.writeInt(a.length);
                for (char v : a) {
                    out.writeChar(v);
                }
            }
            case INT_ARRAY -> {
                int[] a = (int[]) array;
                out.ensureWritable(4 + 4 * a.length);
                out.writeInt(a.length);
                for (int v : a) {
                    out.writeInt(v);
                }
            }
            case LONG_ARRAY -> {
                long[] a = (long[]) array;
                out.ensureWritable(4 + 8 * a.length);
                out.writeInt(a.length);
                for (long v : a) {
                    out.writeLong(v);
                }
            }
            case FLOAT_ARRAY -> {
                float[] a = (float[]) array;
                out.ensureWritable(4 + 4 * a.length);
                out.writeInt(a.length);
                for (float v : a) {
                    out.writeFloat(v);
                }
            }
            case DOUBLE_ARRAY -> {
                double[] a = (double[]) array;
                out.ensureWritable(4 + 8 * a.length);
                out.writeInt(a.length);
                for (double v : a) {
                    out.writeDouble(v);
                }
            }
            default -> throw new IllegalArgumentException("not a primitive array kind: " + kind);
        }
    }

    public static Object readArray(Frame in, WireKind kind) throws MalformedInputException {
        int elementSize = switch (kind) {
            case BOOLEAN_ARRAY, BYTE_ARRAY -> 1;
            case SHORT_ARRAY, CHAR_ARRAY -> 2;
            case INT_ARRAY, FLOAT_ARRAY -> 4;
            default -> 8;
        };
        int length = readLength(in, elementSize, kind.typeName());
        if (length == NULL_LENGTH) {
            return null;
        }
        switch (kind) {
            case BOOLEAN_ARRAY -> {
                boolean[] a = new boolean[length];
                for (int i = 0; i < length; i++) {
                    a[i] = in.readBoolean();
                }
                return a;
            }
            case BYTE_ARRAY -> {
                byte[] a = new byte[length];
                in.readBytes(a);
                return a;
            }
            case SHORT_ARRAY -> {
                short[] a = new short[length];
                for (int i = 0; i < length; i++) {
                    a[i] = in.readShort();
                }
                return a;
            }
            case CHAR_ARRAY -> {
                char[] a = new char[length];
                for (int i = 0; i < length; i++) {
                    a[i] = in.readChar();
                }
                return a;
            }
            case INT_ARRAY -> {
                int[] a = new int[length];
                for (int i = 0; i < length; i++) {
                    a[i] = in.readInt();
                }
                return a;
            }
            case LONG_ARRAY -> {
                long[] a = new long[length];
                for (int i = 0; i < length; i++) {
                    a[i] = in.readLong();
                }
                return a;
            }
            case FLOAT_ARRAY -> {
                float[] a = new float[length];
                for (int i = 0; i < length; i++) {
                    a[i] = in.readFloat();
                }
                return a;
            }
            case DOUBLE_ARRAY -> {
                double[] a = new double[length];
                for (int i = 0; i < length; i++) {
                    a[i] = in.readDouble();
                }
                return a;
            }
            default -> throw new IllegalArgumentException("not a primitive array kind: " + kind);
        }
    }

    /** Writes {@code value} as length-prefixed Smile with the declared type's writer. */
    public static void writeObject(Frame out, ObjectWriter writer, Object value) throws IOException {
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        try (OutputStream stream = new FrameOutputStream(out)) {
            writer.writeValue(stream, value);
        }
        out.setInt(lengthAt, out.writerIndex() - lengthAt - 4);
    }

    /** Reads a length-prefixed Smile value as the declared type. */
    public static Object readObject(Frame in, ObjectReader reader, String declared) throws MalformedInputException {
        int length = readLength(in, 1, declared);
        if (length == NULL_LENGTH) {
            throw new MalformedInputException("malformed " + declared + ": negative length");
        }
        int end = in.readerIndex() + length;
        try {
            // over the frame's array where it has one: the parser checks each token's bytes in its buffer
            // (CheckedSmileParser), and an array spares the stream's copy
            if (in.hasArray()) {
                return reader.readValue(in.array(), in.arrayOffset() + in.readerIndex(), length);
            }
            byte[] bytes = new byte[length];
            in.getBytes(in.readerIndex(), bytes);
            return reader.readValue(bytes);
        } catch (IOException | RuntimeException e) {
            throw new MalformedInputException("could not decode a " + declared + " from the peer's message: "
                    + CodecFailures.describe(e), e);
        } catch (OutOfMemoryError e) {
            // adv16 H1: a frame of a few MB can ask for hundreds (3,000,000 empty arrays in 6 MB where the type
            // is Object: an ArrayList each). What the decoding allocated is garbage once it is abandoned, so
            // the session fails with a reason, and the peer is told, instead of a raw Error out of receive().
            throw new MalformedInputException("could not decode a " + declared + " from the peer's message of "
                    + length + " bytes: decoding it needs more memory than this JVM has (docs/wire-format.md, "
                    + "\"Codec failures\")");
        } catch (StackOverflowError e) {
            throw new MalformedInputException("could not decode a " + declared + " from the peer's message: it is "
                    + "nested too deeply to decode");
        } finally {
            in.readerIndex(end);
        }
    }

    /** Writes what a serializer writes into a frame (Netty's {@code ByteBufOutputStream}, for {@link Frame}s). */
    private static final class FrameOutputStream extends OutputStream {
        private final Frame out;

        FrameOutputStream(Frame out) {
            this.out = out;
        }

        @Override
        public void write(int b) {
            out.writeByte(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            out.writeBytes(b, off, len);
        }
    }

    /** Reads a length (or {@link #NULL_LENGTH}) and checks the frame holds that many elements. */
    private static int readLength(Frame in, int elementSize, String what) throws MalformedInputException {
        if (in.readableBytes() < 4) {
            throw new MalformedInputException("truncated frame: the length of a " + what + " needs 4 bytes, "
                    + in.readableBytes() + " left");
        }
        int length = in.readInt();
        if (length == NULL_LENGTH) {
            return length;
        }
        if (length < 0 || (long) length * elementSize > in.readableBytes()) {
            throw new MalformedInputException("malformed " + what + ": length " + length + " but "
                    + in.readableBytes() + " bytes left in the frame");
        }
        return length;
    }
}
