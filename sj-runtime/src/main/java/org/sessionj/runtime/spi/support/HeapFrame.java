package org.sessionj.runtime.spi.support;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.sessionj.runtime.spi.Frame;

/**
 * A building block for transports: a {@link Frame} on a Java array, no Netty class involved, that goes
 * back to the connection it was written on (its {@link Home}) when released, so that the writer's next
 * frame reuses it and a session in steady state allocates nothing per message (as
 * {@link RecyclableFrame} does for Netty buffers).
 *
 * <p>It checks what a wrong index would corrupt (reads past the written bytes throw
 * {@link IndexOutOfBoundsException}; a second {@link #release} throws {@link IllegalStateException})
 * and nothing more: one owner at a time, so no reference count and no memory fence.
 *
 * <p>A frame that grew past {@link #MAX_RECYCLED} is left to the garbage collector instead, so a single
 * large message does not pin its memory to the connection.
 */
public final class HeapFrame implements Frame {
    /** Frames at most this large go back to their home. */
    public static final int MAX_RECYCLED = RecyclableFrame.MAX_RECYCLED;
    /*
     * Big-endian views of the array (the wire's order, as a ByteBuf's): one bounds check and one store or
     * load for an int or a long, where byte by byte took four or eight of each. Smaller code on the path
     * of every message, which the compiler then inlines into the program's loop (docs/benchmarks.md).
     */
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** Where released frames go back to: one direction of a connection, keeping at most one spare. */
    public interface Home {
        /**
         * Keeps {@code released} for the writer's next frame; false when a spare is kept already or the
         * connection is closed, in which case the frame is left to the garbage collector.
         *
         * @param released a frame of this home that was just released
         * @return whether the home kept it
         */
        boolean giveBack(HeapFrame released);
    }

    private final Home home;
    private byte[] array;
    private int reader;
    private int writer;
    private boolean released;

    /**
     * A new frame of {@code home}.
     *
     * @param home where the frame goes back when released; null: nowhere (the garbage collector)
     * @param initialCapacity its first capacity in bytes; it grows as written
     */
    public HeapFrame(Home home, int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("a frame's capacity cannot be negative: " + initialCapacity);
        }
        this.home = home;
        this.array = new byte[initialCapacity];
    }

    /**
     * A frame that belongs to no connection (released, it is left to the garbage collector).
     *
     * @param initialCapacity its first capacity in bytes; it grows as written
     */
    public HeapFrame(int initialCapacity) {
        this(null, initialCapacity);
    }

    /**
     * A frame holding a copy of {@code length} bytes of {@code bytes} from {@code offset}, belonging to no
     * connection.
     *
     * @param bytes the source
     * @param offset where the bytes start
     * @param length how many
     * @return a frame whose readable bytes are the copy
     */
    public static HeapFrame copyOf(byte[] bytes, int offset, int length) {
        return new HeapFrame(length).writeBytes(bytes, offset, length);
    }

    /**
     * Makes a frame taken back from its home new again: empty, owned.
     *
     * @return this frame
     */
    public HeapFrame reuse() {
        reader = 0;
        writer = 0;
        released = false;
        return this;
    }

    /** The bytes this frame can hold before it grows. */
    public int capacity() {
        return array.length;
    }

    @Override
    public void release() {
        if (released) {
            throw new IllegalStateException("frame released twice");
        }
        released = true;
        // Keep the array for the writer's next frame unless it grew large.
        if (home != null && array.length <= MAX_RECYCLED) {
            home.giveBack(this);
        }
    }

    @Override
    public int readableBytes() {
        return writer - reader;
    }

    @Override
    public boolean isReadable() {
        return writer > reader;
    }

    @Override
    public int readerIndex() {
        return reader;
    }

    @Override
    public HeapFrame readerIndex(int index) {
        if (index < 0 || index > writer) {
            throw new IndexOutOfBoundsException("reader index " + index + " outside 0.." + writer);
        }
        reader = index;
        return this;
    }

    @Override
    public int writerIndex() {
        return writer;
    }

    @Override
    public HeapFrame writerIndex(int index) {
        if (index < reader || index > array.length) {
            throw new IndexOutOfBoundsException("writer index " + index + " outside " + reader + ".." + array.length);
        }
        writer = index;
        return this;
    }

    @Override
    public HeapFrame ensureWritable(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative length: " + bytes);
        }
        if (array.length - writer < bytes) {
            grow(bytes);
        }
        return this;
    }

    @Override
    public HeapFrame reserve(int bytes) {
        if (bytes > 0 && array.length - writer < bytes) {
            // Unbounded but for the array limit: a reservation past it is left to the writes.
            if ((long) writer + bytes <= Integer.MAX_VALUE - 8) {
                grow(bytes);
            }
        }
        return this;
    }

    /** Room for {@code bytes} more: at least double, as Netty's heap buffers grow. */
    private void grow(int bytes) {
        long needed = (long) writer + bytes;
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IndexOutOfBoundsException("a frame cannot hold " + needed + " bytes");
        }
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, Math.max(64, 2L * array.length)));
        array = Arrays.copyOf(array, capacity);
    }

    /** The index to write {@code bytes} at, growing the array if needed; the writer index moves past them. */
    private int claim(int bytes) {
        int at = writer;
        if (array.length - at < bytes) {
            grow(bytes);
        }
        writer = at + bytes;
        return at;
    }

    /** The index to read {@code bytes} from; the reader index moves past them. */
    private int take(int bytes) {
        int at = reader;
        if (writer - at < bytes) {
            throw underflow(at, bytes);
        }
        reader = at + bytes;
        return at;
    }

    private IndexOutOfBoundsException underflow(int at, int bytes) {
        return new IndexOutOfBoundsException("reading " + bytes + " bytes at " + at + " of a frame of " + writer);
    }

    @Override
    public HeapFrame writeByte(int value) {
        int at = claim(1);
        array[at] = (byte) value;
        return this;
    }

    @Override
    public HeapFrame writeShort(int value) {
        int at = claim(2);
        putShort(array, at, value);
        return this;
    }

    @Override
    public HeapFrame writeInt(int value) {
        int at = claim(4);
        putInt(array, at, value);
        return this;
    }

    @Override
    public HeapFrame writeLong(long value) {
        int at = claim(8);
        LONG.set(array, at, value);
        return this;
    }

    @Override
    public HeapFrame writeBytes(byte[] source, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, source.length);
        int at = claim(length);
        System.arraycopy(source, offset, array, at, length);
        return this;
    }

    @Override
    public HeapFrame writeBytes(Frame source) {
        int length = source.readableBytes();
        int at = claim(length);
        if (source.hasArray()) {
            System.arraycopy(source.array(), source.arrayOffset() + source.readerIndex(), array, at, length);
            source.skipBytes(length);
        } else {
            source.readBytes(array, at, length);
        }
        return this;
    }

    @Override
    public byte readByte() {
        return array[take(1)];
    }

    @Override
    public short readShort() {
        int at = take(2);
        return (short) ((array[at] << 8) | (array[at + 1] & 0xFF));
    }

    @Override
    public int readInt() {
        return getInt(array, take(4));
    }

    @Override
    public long readLong() {
        int at = take(8);
        return (long) LONG.get(array, at);
    }

    @Override
    public HeapFrame readBytes(byte[] target, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, target.length);
        int at = take(length);
        System.arraycopy(array, at, target, offset, length);
        return this;
    }

    @Override
    public HeapFrame readBytes(Frame target, int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length: " + length);
        }
        int at = take(length);
        target.writeBytes(array, at, length);
        return this;
    }

    @Override
    public HeapFrame skipBytes(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length: " + length);
        }
        take(length);
        return this;
    }

    @Override
    public byte getByte(int index) {
        check(index, 1);
        return array[index];
    }

    @Override
    public int getInt(int index) {
        check(index, 4);
        return getInt(array, index);
    }

    @Override
    public HeapFrame getBytes(int index, byte[] target) {
        check(index, target.length);
        System.arraycopy(array, index, target, 0, target.length);
        return this;
    }

    @Override
    public HeapFrame setInt(int index, int value) {
        check(index, 4);
        putInt(array, index, value);
        return this;
    }

    @Override
    public HeapFrame setShort(int index, int value) {
        check(index, 2);
        putShort(array, index, value);
        return this;
    }

    /** Absolute access stays within the bytes written, as a {@code ByteBuf}'s within its capacity. */
    private void check(int index, int bytes) {
        if (index < 0 || index > writer - bytes) {
            throw new IndexOutOfBoundsException(
                    bytes + " bytes at " + index + " outside the " + writer + " written bytes of a frame");
        }
    }

    @Override
    public boolean hasArray() {
        return true;
    }

    @Override
    public byte[] array() {
        return array;
    }

    @Override
    public int arrayOffset() {
        return 0;
    }

    @Override
    public String toString() {
        return "HeapFrame(ridx: " + reader + ", widx: " + writer + ", cap: " + array.length + ")";
    }

    private static void putShort(byte[] a, int at, int value) {
        a[at] = (byte) (value >>> 8);
        a[at + 1] = (byte) value;
    }

    private static void putInt(byte[] a, int at, int value) {
        INT.set(a, at, value);
    }

    private static int getInt(byte[] a, int at) {
        return (int) INT.get(a, at);
    }
}
