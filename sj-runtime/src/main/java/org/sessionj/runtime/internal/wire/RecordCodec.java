package org.sessionj.runtime.internal.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * Writes and reads flat records and one-dimensional arrays of them (docs/wire-format.md §3,
 * {@code RECORD} and {@code RECORD_ARRAY}): the layout fingerprint, then each value as a presence
 * byte and its components in declaration order — primitives raw, strings as {@code string}, primitive
 * arrays as in an array item, nested records the same way. Reads check the fingerprint and every length against the frame.
 */
public final class RecordCodec {
    private static final byte ABSENT = 0;
    private static final byte PRESENT = 1;
    /** Values {@link #prime} writes and reads: past the JDK's customisation threshold of a method handle (127). */
    static final int PRIMING_VALUES = 200;

    private RecordCodec() {
    }

    /** Writes a record value (may be null). */
    public static void write(Frame out, RecordLayout layout, Object value) {
        out.writeInt(layout.fingerprint());
        writeValue(out, layout, value);
    }

    /** Writes an array of records (the array and its elements may be null). */
    public static void writeArray(Frame out, RecordLayout layout, Object[] values) {
        out.writeInt(layout.fingerprint());
        if (values == null) {
            out.writeInt(ValueCodec.NULL_LENGTH);
            return;
        }
        out.writeInt(values.length);
        int fixed = layout.fixedBytes();
        if (fixed > 0) {
            // Room for every value at once (at most one presence byte each for absent ones): the buffer
            // grows once, not by doubling again and again (a copy each time) through a large array; never past
            // its bound here (reserve): null elements take less, and a write that really exceeds it fails as before.
            out.reserve((int) Math.min(Integer.MAX_VALUE, (long) fixed * values.length));
        }
        for (Object value : values) {
            writeValue(out, layout, value);
        }
    }

    /** Reads a record value written by {@link #write}. */
    public static Object read(Frame in, RecordLayout layout) throws MalformedInputException {
        checkFingerprint(in, layout);
        return readValue(in, layout);
    }

    /** Reads an array written by {@link #writeArray}. */
    public static Object[] readArray(Frame in, RecordLayout layout) throws MalformedInputException {
        checkFingerprint(in, layout);
        require(in, 4, "the length of a " + layout.type().getName() + "[]");
        int length = in.readInt();
        if (length == ValueCodec.NULL_LENGTH) {
            return null;
        }
        if (length < 0 || length > in.readableBytes()) {
            throw new MalformedInputException("malformed " + layout.type().getName() + "[]: length " + length + " but "
                    + in.readableBytes() + " bytes left in the frame");
        }
        Object[] values = (Object[]) Array.newInstance(layout.type(), length);
        for (int i = 0; i < length; i++) {
            values[i] = readValue(in, layout);
        }
        return values;
    }

    /**
     * Runs {@code layout}'s writer and reader over an array of {@value #PRIMING_VALUES} zero values (every
     * component zero, empty or absent) in a scratch buffer from {@code alloc}, once per layout per JVM
     * (later calls return at once). A layout's method-handle chains are otherwise spun up by the session's
     * first messages: their lambda forms compiled to classes on first use, and each chain customised (a
     * class of its own) after ~127 calls, all inside the program's first steps (n-Body's first message of
     * a fresh JVM cost 10 ms, its first 20 messages 22 ms). Sized to pass that customisation threshold.
     * A record whose constructor refuses zero values is left cold: its first message spins it up as before.
     */
    public static void prime(RecordLayout layout, ByteBufAllocator alloc) {
        if (!layout.claimPriming()) {
            return;
        }
        ByteBuf scratch = null;
        try {
            // A zero value reads at most 8 bytes per component (a long or double; a string, array or
            // record reads 4 or 1), and a record has at most 255 components (the constructor's limit).
            scratch = alloc.buffer(Math.max(8 * 255, Math.max(64, layout.fixedBytes()) * PRIMING_VALUES + 16));
            // The view a session over a network transport writes and reads its frames through.
            ByteBufFrame frame = new ByteBufFrame(scratch);
            Object zero = layout.read(new ByteBufFrame(scratch.writeZero(8 * 255)));
            Object[] values = (Object[]) Array.newInstance(layout.type(), PRIMING_VALUES);
            Arrays.fill(values, zero);
            scratch.clear();
            writeArray(frame, layout, values);
            readArray(frame, layout);
        } catch (Throwable e) {
            // A constructor that refuses zero values (or an accessor that fails on them): left cold.
        } finally {
            if (scratch != null) {
                scratch.release();
            }
        }
    }

    /** One value: presence byte, then the components (one method-handle chain of the layout writes them). */
    static void writeValue(Frame out, RecordLayout layout, Object value) {
        if (value == null) {
            out.writeByte(ABSENT);
            return;
        }
        out.writeByte(PRESENT);
        try {
            layout.write(out, value);
        } catch (RuntimeException | Error e) {
            throw e;                                        // a ClassCastException: the value is not of the layout's class
        } catch (Throwable e) {
            throw new IllegalStateException("an accessor of " + layout.type().getName() + " failed", e);
        }
    }

    /** One value: presence byte, then the components (a method handle of the layout reads them). */
    static Object readValue(Frame in, RecordLayout layout) throws MalformedInputException {
        String name = layout.type().getName();
        require(in, 1, "a " + name);
        byte presence = in.readByte();
        if (presence == ABSENT) {
            return null;
        }
        if (presence != PRESENT) {
            throw new MalformedInputException(String.format("malformed %s: presence byte 0x%02x (expected 0 or 1)",
                    name, presence & 0xff));
        }
        try {
            return layout.read(in);
        } catch (MalformedInputException e) {
            throw e;
        } catch (IndexOutOfBoundsException e) {
            throw new MalformedInputException("truncated frame: a " + name + " needs more bytes than the "
                    + in.readableBytes() + " left", e);
        } catch (Throwable e) {
            throw new MalformedInputException("the peer's values were refused by the constructor of " + name + ": " + e,
                    e instanceof Exception ex ? ex : null);
        }
    }

    private static void checkFingerprint(Frame in, RecordLayout layout) throws MalformedInputException {
        require(in, 4, "the layout of a " + layout.type().getName());
        int fingerprint = in.readInt();
        if (fingerprint != layout.fingerprint()) {
            throw new MalformedInputException(String.format(
                    "the peer's %s has another layout (fingerprint %08x) than ours, %s (fingerprint %08x):"
                            + " both sides need the same version of the class", layout.type().getName(), fingerprint,
                    layout.description(), layout.fingerprint()));
        }
    }

    private static Frame require(Frame in, int bytes, String what) throws MalformedInputException {
        if (in.readableBytes() < bytes) {
            throw new MalformedInputException("truncated frame: " + what + " needs " + bytes + " more bytes, "
                    + in.readableBytes() + " left");
        }
        return in;
    }
}
