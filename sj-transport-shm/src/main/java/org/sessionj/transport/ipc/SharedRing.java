package org.sessionj.transport.ipc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A single-producer single-consumer ring of records in memory that two processes map (the layout
 * of Agrona's one-to-one ring buffer, written with {@link VarHandle}s over a {@link ByteBuffer}, so
 * it needs no {@code Unsafe}, and every access is bounds-checked: a damaged ring fails cleanly).
 * One process produces, the other consumes; each holds its own {@code SharedRing} over the region
 * and uses only its half.
 *
 * <pre>
 * region  := data[capacity] · tail-line[128] · head:int64 · pad[120]
 * record  := length:int32 (header + payload; written last, with release semantics; 0 = not yet)
 *            · type:int32 (0 = padding to the end of the data) · payload · pad to 8 bytes
 * </pre>
 *
 * A record never wraps: when it does not fit before the end, a padding record fills the rest. The
 * consumer zeroes what it has read before it moves the head on, so the producer always writes over
 * zeros and a length of zero always means "nothing yet".
 */
final class SharedRing {
    static final int HEADER = 8;
    static final int ALIGNMENT = 8;
    static final int TRAILER = 256;
    static final int PADDING = 0;
    private static final int HEAD_OFFSET = 128;
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final byte[] ZEROS = new byte[4096];

    /** For the ring's own accesses; its position and limit never change (view handles check the limit). */
    private final ByteBuffer region;
    /** The same memory for the owner's bulk copies, which move its position and limit. */
    private final ByteBuffer copies;
    private final int capacity;
    private final int headOffset;
    /** Producer: the position of the next record; consumer: unused. */
    private long tail;
    /** Producer: the record claimed but not committed. */
    private int claimed = -1;
    private int claimedLength;
    /** Consumer: the position of the next record to read. */
    private long head;

    /** The ring over {@code region}: {@code capacity} data bytes (a power of two) and the trailer. */
    SharedRing(ByteBuffer region, int capacity) {
        if (Integer.bitCount(capacity) != 1 || region.capacity() != capacity + TRAILER) {
            throw new IllegalArgumentException("a ring needs a power-of-two capacity and " + TRAILER
                    + " trailer bytes, got " + capacity + " in " + region.capacity());
        }
        this.region = region;
        this.copies = region.duplicate().order(region.order());
        this.capacity = capacity;
        this.headOffset = capacity + HEAD_OFFSET;
        this.head = (long) LONG.getAcquire(region, headOffset);
        this.tail = head;
        // The position comes from the memory, which the peer may have written anything into: one that is
        // not a record boundary would make every later access of the ring misaligned.
        if ((head & (ALIGNMENT - 1)) != 0) {
            throw new CorruptRingException("a ring position of " + head + ", not a multiple of " + ALIGNMENT);
        }
    }

    /** The longest payload of one record: an eighth of the ring, so a frame never waits for all of it. */
    int maxPayload() {
        return capacity / 8 - HEADER;
    }

    /** The memory, for bulk copies in and out of records (by the one thread that owns this end). */
    ByteBuffer bytes() {
        return copies;
    }

    // ---- producer ----

    /**
     * Claims space for a record of {@code type} with {@code length} payload bytes.
     *
     * @return the index of the payload in {@link #bytes()}, or -1 if the ring is too full now
     */
    int claim(int type, int length) {
        if (length < 0 || length > maxPayload()) {
            throw new IllegalArgumentException("a ring record holds 0.." + maxPayload() + " bytes, not " + length);
        }
        int required = align(HEADER + length);
        long consumed = (long) LONG.getAcquire(region, headOffset);
        long free = capacity - (tail - consumed);
        int index = (int) tail & (capacity - 1);
        int toEnd = capacity - index;
        if (required > toEnd) {
            if (free < toEnd + required) {
                return -1;
            }
            region.putInt(index + 4, PADDING);
            INT.setRelease(region, index, toEnd);
            tail += toEnd;
            index = 0;
        } else if (free < required) {
            return -1;
        }
        region.putInt(index + 4, type);
        claimed = index;
        claimedLength = HEADER + length;
        return index + HEADER;
    }

    /** Publishes the claimed record. */
    void commit() {
        INT.setRelease(region, claimed, claimedLength);
        tail += align(claimedLength);
        claimed = -1;
    }

    // ---- consumer ----

    /** What the consumer found: a record's type, payload index and length. */
    interface Reader {
        void record(int type, int index, int length);
    }

    /**
     * Reads the next record (skipping padding) into {@code reader}, then frees its space.
     *
     * @return false if there is none yet
     * @throws CorruptRingException if the ring holds what no producer writes
     */
    boolean read(Reader reader) {
        while (true) {
            int index = (int) head & (capacity - 1);
            int length = (int) INT.getAcquire(region, index);
            if (length == 0) {
                return false;
            }
            // Checked before it is aligned: a length near Integer.MAX_VALUE aligns to a negative size, which
            // moved the head back by 2^31 (a multiple of the capacity) onto the same record, for ever.
            if (length < HEADER || length > capacity - index) {
                throw new CorruptRingException("a record of " + length + " bytes at " + index + " in a ring of "
                        + capacity + " (" + (capacity - index) + " bytes from there to its end)");
            }
            int size = align(length);
            int type = region.getInt(index + 4);
            try {
                if (type != PADDING) {
                    reader.record(type, index + HEADER, length - HEADER);
                }
            } finally {
                zero(index, size);
                head += size;
                LONG.setRelease(region, headOffset, head);
            }
            if (type != PADDING) {
                return true;
            }
        }
    }

    /**
     * Consumer: reads and drops every record there is, as a reader that ignores them would (for a
     * memory both ends are done with).
     *
     * @return false if the ring is damaged or holds more than it can
     */
    boolean discardAll() {
        long start = head;
        try {
            while (head - start <= capacity && read(DISCARD)) {
                // each record read is zeroed and the head moves past it
            }
        } catch (CorruptRingException | IndexOutOfBoundsException e) {
            return false;
        }
        return head - start <= capacity;
    }

    private static final Reader DISCARD = (type, index, length) -> { };

    private void zero(int index, int length) {
        for (int done = 0; done < length; done += ZEROS.length) {
            region.put(index + done, ZEROS, 0, Math.min(ZEROS.length, length - done));
        }
    }

    private static int align(int length) {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /** The ring holds something no producer writes. */
    static final class CorruptRingException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CorruptRingException(String message) {
            super(message);
        }
    }
}
