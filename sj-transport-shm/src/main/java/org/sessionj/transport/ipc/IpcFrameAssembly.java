package org.sessionj.transport.ipc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Turns the records of one ring back into the frames the writer sent: a whole-frame record becomes a
 * buffer of the connection's allocator, fragments ({@code FIRST}, {@code MIDDLE}, {@code LAST}) are
 * joined into one, the close record ends the stream, and anything a sound writer cannot have written
 * (a fragment out of order, lengths that disagree, a frame over {@code sessionj.ipc.maxFrame}) marks
 * the ring corrupt. At most one whole frame is held at a time: {@link SharedRing#read} delivers one
 * record per call and the reader takes each frame before reading on.
 *
 * <p>Not thread-safe: only the thread that holds its {@link IpcInbound}'s read state calls it, and
 * {@link #release} runs once no read is in progress any more.
 */
final class IpcFrameAssembly implements SharedRing.Reader {
    private static final String CORRUPT = "corrupt ipc ring from the peer: ";
    private final ByteBuffer bytes;
    private final ByteBufAllocator alloc;
    private final int maxFrame;
    private ByteBuf ready;
    private ByteBuf partial;
    private int partialTotal;
    private boolean ended;
    private String failure;

    /** Frames of {@code ring}, in buffers of {@code alloc}, none longer than {@code maxFrame} bytes. */
    IpcFrameAssembly(SharedRing ring, ByteBufAllocator alloc, int maxFrame) {
        this.bytes = ring.bytes();
        this.alloc = alloc;
        this.maxFrame = maxFrame;
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
    }

    /** One record off the ring: a frame is {@link #hasFrame whole} once its last part came. */
    @Override
    public void record(int type, int index, int length) {
        if (failure != null || ended) {
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
        partial = alloc.buffer(total);
        copy(partial, index + 4, length - 4);
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
        copy(partial, index, length);
        if (last) {
            if (partial.readableBytes() != partialTotal) {
                corrupt("a fragmented frame of " + partialTotal + " bytes that ended after " + partial.readableBytes());
                return;
            }
            ready = partial;
            partial = null;
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
