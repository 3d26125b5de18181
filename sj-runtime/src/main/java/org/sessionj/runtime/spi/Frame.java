package org.sessionj.runtime.spi;

/**
 * A frame as the session layer writes and reads it: a growable sequence of bytes with a reader and a
 * writer index, big-endian, the subset of Netty's {@code ByteBuf} that SJ's codecs use, with the same
 * names and meanings. It exists so that a transport whose frames never leave the JVM (the in-JVM one)
 * need not make them Netty buffers: every Netty buffer runs Netty's static initialisers
 * ({@code PlatformDependent}, the leak detector, Netty's logging), which cost a fresh JVM's first
 * session more than everything else together. Network transports keep {@code ByteBuf} end to end:
 * the session layer sees their frames through a view ({@code spi.support.ByteBufFrame}).
 *
 * <p>A frame has one owner at a time, like a {@code ByteBuf} with one reference: the writer until it
 * is written to a connection, then the reader, who {@linkplain #release() releases} it when done.
 * Reading past the written bytes throws {@link IndexOutOfBoundsException}, as {@code ByteBuf} does.
 *
 * @see FrameConnection
 */
public interface Frame {

    /** The bytes written and not yet read. */
    int readableBytes();

    /** Whether at least one byte is left to read. */
    boolean isReadable();

    /** Where the next read starts. */
    int readerIndex();

    /**
     * Moves the reader index.
     *
     * @param index from 0 to {@link #writerIndex()}
     * @return this frame
     */
    Frame readerIndex(int index);

    /** Where the next write goes. */
    int writerIndex();

    /**
     * Moves the writer index (to drop what was written after a mark, say).
     *
     * @param index from {@link #readerIndex()} to the capacity
     * @return this frame
     */
    Frame writerIndex(int index);

    /**
     * Makes room for {@code bytes} more bytes after the writer index (writes grow the frame as needed
     * anyway; this grows it once for a run of writes).
     *
     * @return this frame
     */
    Frame ensureWritable(int bytes);

    /**
     * Makes room for up to {@code bytes} more bytes, as far as the frame's bound allows (Netty's
     * {@code ensureWritable(bytes, false)}): a hint that never fails; a write past the bound still does.
     *
     * @return this frame
     */
    Frame reserve(int bytes);

    /** Writes the low 8 bits of {@code value}; returns this frame. */
    Frame writeByte(int value);

    /** Writes 1 or 0; returns this frame. */
    default Frame writeBoolean(boolean value) {
        return writeByte(value ? 1 : 0);
    }

    /** Writes the low 16 bits of {@code value}, big-endian; returns this frame. */
    Frame writeShort(int value);

    /** Writes the 16-bit {@code value}, big-endian; returns this frame. */
    default Frame writeChar(int value) {
        return writeShort(value);
    }

    /** Writes {@code value}, big-endian; returns this frame. */
    Frame writeInt(int value);

    /** Writes {@code value}, big-endian; returns this frame. */
    Frame writeLong(long value);

    /** Writes {@code value}'s raw bits, big-endian; returns this frame. */
    default Frame writeFloat(float value) {
        return writeInt(Float.floatToRawIntBits(value));
    }

    /** Writes {@code value}'s raw bits, big-endian; returns this frame. */
    default Frame writeDouble(double value) {
        return writeLong(Double.doubleToRawLongBits(value));
    }

    /** Writes all of {@code source}; returns this frame. */
    default Frame writeBytes(byte[] source) {
        return writeBytes(source, 0, source.length);
    }

    /** Writes {@code length} bytes of {@code source} from {@code offset}; returns this frame. */
    Frame writeBytes(byte[] source, int offset, int length);

    /**
     * Writes the readable bytes of {@code source} and reads them from it (its reader index moves to
     * its writer index).
     *
     * @return this frame
     */
    Frame writeBytes(Frame source);

    /** Reads one byte. */
    byte readByte();

    /** Reads one byte as an unsigned value. */
    default short readUnsignedByte() {
        return (short) (readByte() & 0xFF);
    }

    /** Reads one byte: whether it is not 0. */
    default boolean readBoolean() {
        return readByte() != 0;
    }

    /** Reads a big-endian 16-bit value. */
    short readShort();

    /** Reads a big-endian 16-bit value as an unsigned one. */
    default int readUnsignedShort() {
        return readShort() & 0xFFFF;
    }

    /** Reads a big-endian 16-bit character. */
    default char readChar() {
        return (char) readShort();
    }

    /** Reads a big-endian 32-bit value. */
    int readInt();

    /** Reads a big-endian 64-bit value. */
    long readLong();

    /** Reads a big-endian 32-bit value as a {@code float}'s bits. */
    default float readFloat() {
        return Float.intBitsToFloat(readInt());
    }

    /** Reads a big-endian 64-bit value as a {@code double}'s bits. */
    default double readDouble() {
        return Double.longBitsToDouble(readLong());
    }

    /** Fills {@code target} from this frame; returns this frame. */
    default Frame readBytes(byte[] target) {
        return readBytes(target, 0, target.length);
    }

    /** Reads {@code length} bytes into {@code target} from {@code offset}; returns this frame. */
    Frame readBytes(byte[] target, int offset, int length);

    /** Reads {@code length} bytes and writes them to {@code target}; returns this frame. */
    Frame readBytes(Frame target, int length);

    /** Moves the reader index on by {@code length}; returns this frame. */
    Frame skipBytes(int length);

    /** The byte at {@code index}, indexes unchanged. */
    byte getByte(int index);

    /** The big-endian 32-bit value at {@code index}, indexes unchanged. */
    int getInt(int index);

    /** Copies the bytes from {@code index} into {@code target}, indexes unchanged; returns this frame. */
    Frame getBytes(int index, byte[] target);

    /** Overwrites the 32-bit value at {@code index} (written before), big-endian; returns this frame. */
    Frame setInt(int index, int value);

    /** Overwrites the 16-bit value at {@code index} (written before), big-endian; returns this frame. */
    Frame setShort(int index, int value);

    /** Whether the bytes are in a Java array ({@link #array()}), for bulk encoders. */
    boolean hasArray();

    /** The array holding the bytes, if {@link #hasArray()}; index {@code i} is at {@code arrayOffset() + i}. */
    byte[] array();

    /** Where index 0 is in {@link #array()}. */
    int arrayOffset();

    /**
     * The owner is done with this frame: it goes back to its connection for reuse, or to the garbage
     * collector (a view over a {@code ByteBuf} releases the buffer). The frame must not be used after.
     */
    void release();
}
