package org.sessionj.transport.ipc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * Turns the records of one ring back into the frames the writer sent: a whole-frame record becomes a
 * buffer of the connection's allocator, fragments ({@code FIRST}, {@code MIDDLE}, {@code LAST}) are
 * joined into one, the close record ends the stream, and anything a sound writer cannot have written
 * (a fragment out of order, lengths that disagree, a frame over {@code sessionj.ipc.maxFrame}) marks
 * the ring corrupt. At most one whole frame is held at a time: {@link SharedRing#read} delivers one
 * record per call and the reader takes each frame before reading on.
 *
 * <p>A fragmented frame's buffer grows as its fragments arrive, never to the length its first fragment
 * claims (a peer that wrote a first fragment claiming 64 MiB and nothing more made the reader allocate
 * 64 MiB of direct memory at once, per connection, until {@code OutOfMemoryError}), and the bytes it holds
 * are charged to the process's {@link UnfinishedFrames} budget.
 *
 * <p>Not thread-safe: only the thread that holds its {@link IpcInbound}'s read state calls it, and
 * {@link #release} runs once no read is in progress any more.
 */
final class IpcFrameAssembly implements SharedRing.Reader {
    private static final String CORRUPT = "corrupt ipc ring from the peer: ";
    private final ByteBuffer bytes;
    private final ByteBufAllocator alloc;
    private final int maxFrame;
    private final UnfinishedFrames budget;
    /** Told when another connection's frame gave this one's up: the reader must look (wakes it). */
    private final Runnable wake;
    private final String peer;
    private ByteBuf ready;
    private ByteBuf partial;
    private int partialTotal;
    /** The budget's record of {@link #partial}, or null. */
    private UnfinishedFrames.Frame charged;
    /** Why the frame being assembled was given up for a newer one (set by any thread), or null. */
    private volatile String givenUp;
    private boolean ended;
    private String failure;

    /**
     * Frames of {@code ring}, in buffers of {@code alloc}, none longer than {@code maxFrame} bytes, fragmented
     * ones charged to {@code budget}; {@code wake} is run when another frame gives this one's up, and
     * {@code peer} names the connection in messages.
     */
    IpcFrameAssembly(SharedRing ring, ByteBufAllocator alloc, int maxFrame, UnfinishedFrames budget, Runnable wake,
            String peer) {
        this.bytes = ring.bytes();
        this.alloc = alloc;
        this.maxFrame = maxFrame;
        this.budget = budget;
        this.wake = wake;
        this.peer = peer;
    }

    /** Whether a whole frame waits to be taken. */
    boolean hasFrame() {
        return ready != null;
    }

    /** The whole frame waiting, now the caller's to release, or null. */
    ByteBuf take() {
        ByteBuf frame = ready;
        ready = null;
        return frame;
    }

    /** Whether the peer's close record was read. */
    boolean ended() {
        return ended;
    }

    /** Throws once the close record or a corruption was read: no frame comes after either. */
    void failIfOver() throws IOException {
        String dropped = givenUp;
        if (dropped != null && failure == null && !ended) {
            fail(dropped);
        }
        if (ended) {
            throw new IOException("ipc connection closed by the peer");
        }
        if (failure != null) {
            throw new IOException(failure);
        }
    }

    /** The ring broke in a way the caller found ({@code what} says how): no frame comes any more. */
    void corrupt(String what) {
        fail(CORRUPT + what);
    }

    /** No frame comes any more, for {@code reason} (said as it stands by every later read). */
    void fail(String reason) {
        failure = reason;
        release();
    }

    /** Releases the frames held, whole or partial. */
    void release() {
        if (ready != null) {
            ready.release();
            ready = null;
        }
        if (partial != null) {
            partial.release();
            partial = null;
        }
        if (charged != null) {
            charged.done();
            charged = null;
        }
    }

    /** Whether no frame comes any more (a failure or corruption was seen), for tests. */
    boolean isFailedForTest() {
        return failure != null;
    }

    /** Bytes the frame being assembled holds (its buffer's capacity), for tests. */
    int partialCapacity() {
        return partial == null ? 0 : partial.capacity();
    }

    /** One record off the ring: a frame is {@link #hasFrame whole} once its last part came. */
    @Override
    public void record(int type, int index, int length) {
        if (failure != null || ended) {
            return;
        }
        if (givenUp != null) {
            fail(givenUp);
            return;
        }
        switch (type) {
            case Records.FRAME -> whole(index, length);
            case Records.FIRST -> first(index, length);
            case Records.MIDDLE, Records.LAST -> following(type == Records.LAST, index, length);
            case Records.CLOSE -> {
                ended = true;
                release();
            }
            default -> corrupt("a record of unknown type " + type);
        }
    }

    private void whole(int index, int length) {
        if (partial != null) {
            corrupt("a whole frame inside a fragmented one");
        } else if (length > maxFrame) {
            corrupt(tooLong(length));
        } else {
            ready = alloc.buffer(length);
            copy(ready, index, length);
        }
    }

    private void first(int index, int length) {
        if (partial != null || length < 4) {
            corrupt(partial != null ? "a new fragmented frame before the last ended" : "a first fragment without a length");
            return;
        }
        int total = bytes.clear().getInt(index); // clear: absolute reads check the limit a copy left
        if (total < length - 4 || total > maxFrame) {
            corrupt(total > maxFrame ? tooLong(total) : "a fragmented frame of " + total + " bytes");
            return;
        }
        partialTotal = total;
        charged = budget.start(total, peer, reason -> {
            givenUp = reason;
            wake.run();
        });
        // As tcp's buffers do: grow as bytes arrive, never to the length the header claims.
        int first = length - 4;
        if (!charge(first)) {
            return;
        }
        try {
            partial = alloc.buffer(first, total);
        } catch (OutOfMemoryError e) {
            outOfMemory(first, e);
            return;
        }
        copy(partial, index + 4, first);
    }

    /**
     * Charges the budget for a buffer of the frame that holds {@code needed} bytes (the capacity it grows to);
     * false, the connection failed, when it does not fit.
     */
    private boolean charge(int needed) {
        int capacity = partial == null ? needed
                : needed <= partial.capacity() ? partial.capacity() : alloc.calculateNewCapacity(needed, partialTotal);
        if (!charged.hold(capacity)) {
            fail(charged.overBudget(capacity));
            return false;
        }
        return true;
    }

    /** Direct memory ran out for a frame's buffer: the connection fails with a reason, never the Error. */
    private void outOfMemory(int bytes, OutOfMemoryError e) {
        fail("ipc frame from the peer refused: no memory for its buffer of " + bytes + " bytes (of a frame of "
                + partialTotal + "): " + e.getMessage() + " (" + peer + ")");
    }

    private void following(boolean last, int index, int length) {
        if (partial == null) {
            corrupt("a continuation fragment without a first one");
            return;
        }
        if (partial.readableBytes() + (long) length > partialTotal) {
            corrupt("fragments longer than their frame of " + partialTotal + " bytes");
            return;
        }
        if (!charge(partial.readableBytes() + length)) {
            return;
        }
        try {
            copy(partial, index, length);
        } catch (OutOfMemoryError e) {
            outOfMemory(partial.readableBytes() + length, e);
            return;
        }
        if (last) {
            if (partial.readableBytes() != partialTotal) {
                corrupt("a fragmented frame of " + partialTotal + " bytes that ended after " + partial.readableBytes());
                return;
            }
            ready = partial;
            partial = null;
            charged.done(); // whole: no longer unfinished
            charged = null;
        }
    }

    private String tooLong(int length) {
        return "a frame of " + length + " bytes, longer than sessionj.ipc.maxFrame (" + maxFrame + ")";
    }

    private void copy(ByteBuf target, int index, int length) {
        bytes.clear();
        bytes.limit(index + length).position(index);
        target.writeBytes(bytes);
    }
}
