package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * Cuts a byte stream (arriving in chunks of any size) into frames: a 4-byte big-endian length, then
 * that many bytes, as on a tcp connection. A length that is negative or over the maximum means the
 * peer is not an SJ peer (or is broken): {@link #feed} fails naming the length found.
 *
 * <p>A frame that spans chunks is kept as the chunks that came (never a buffer of the length its header
 * claims), under the {@link UnfinishedFrames} rules: its bytes count toward the process's budget for
 * unfinished frames ({@link #feed} fails when they do not fit), and it must be whole by its deadline
 * (time while the reader was behind, {@code pausedNanos}, not counted), checked by one timer at a
 * time; a frame past it, or given up for a newer one, is dropped and {@code failed} is told why.
 *
 * <p>A chunk of up to {@link #SMALL_PIECE} bytes that does not finish the frame is copied into a tail
 * buffer (sized to what the frame still needs, at most {@link #TAIL_BYTES}) instead of becoming a
 * component of its own: a peer that sends a frame one byte per message (WebSocket messages, uploads)
 * would otherwise pin a buffer, a slice and a component (~260 bytes of heap) per byte, which no bound
 * counting bytes sees. So the memory held for an unfinished frame stays within a small factor of its bytes.
 *
 * <p>Thread-safe: the chunks come from one thread at a time, the deadline check from a timer thread.
 */
public final class FrameAssembler {
    /** Bytes of the length in front of every frame. */
    public static final int HEADER_BYTES = 4;
    /** Chunks up to this size that do not finish the frame are copied into the tail buffer. */
    static final int SMALL_PIECE = 1024;
    /** The most a tail buffer holds: then it becomes one component of the cumulation. */
    static final int TAIL_BYTES = 8 * 1024;

    private final ByteBufAllocator alloc;
    private final int maxFrameBytes;
    private final CompositeByteBuf cumulation;
    /** Small chunks of the unfinished frame, copied (bytes behind the cumulation's), or null. */
    private ByteBuf tail;
    private final UnfinishedFrames rules;
    private final Supplier<String> peer;
    private final LongSupplier pausedNanos;
    private final Consumer<String> failed;
    /** The frame that has started and not finished, or null. */
    private UnfinishedFrames.Frame partial;
    /** {@link #pausedNanos} when {@link #partial} started. */
    private long pausedAtStart;
    /** Frames cut so far: a partial frame after a cut is a new one. */
    private long cut;
    private long cutAtStart;
    private ScheduledFuture<?> check;
    /** Why the assembler failed (nothing more is assembled), or null. */
    private String failure;

    /** An assembler of frames of up to {@code maxFrameBytes}, under the process's rules for unfinished frames. */
    public FrameAssembler(ByteBufAllocator alloc, int maxFrameBytes) {
        this(alloc, maxFrameBytes, UnfinishedFrames.shared(), () -> "peer", () -> 0, reason -> { });
    }

    /**
     * An assembler of frames of up to {@code maxFrameBytes} from {@code peer} (for messages), under
     * {@code rules}; {@code pausedNanos} tells how long the reader has been behind so far (the frame
     * could not progress meanwhile), and {@code failed} is told (on a timer's or another connection's
     * thread) when an unfinished frame missed its deadline or was given up for a newer one.
     */
    public FrameAssembler(ByteBufAllocator alloc, int maxFrameBytes, UnfinishedFrames rules, Supplier<String> peer,
            LongSupplier pausedNanos, Consumer<String> failed) {
        this.alloc = alloc;
        this.maxFrameBytes = maxFrameBytes;
        this.cumulation = alloc.compositeBuffer(Integer.MAX_VALUE);
        this.rules = rules;
        this.peer = peer;
        this.pausedNanos = pausedNanos;
        this.failed = failed;
    }

    /**
     * Adds {@code chunk} (taking ownership) and hands every frame it completes to {@code frames}. With
     * nothing partial held (a request-response exchange: every chunk is whole frames), the frames are
     * copied straight out of the chunk, and only a partial frame at its end is kept: no component is
     * added to and discarded from the composite per message.
     */
    public synchronized void feed(ByteBuf chunk, Consumer<ByteBuf> frames) throws IOException {
        if (failure != null) {
            chunk.release();
            throw new IOException(failure);
        }
        if (!cumulation.isReadable()) {
            try {
                cutFrames(chunk, frames);
            } catch (IOException | RuntimeException e) {
                chunk.release();
                throw e;
            }
            if (!chunk.isReadable()) {
                chunk.release();
                unfinished();
                return;
            }
        }
        int n = chunk.readableBytes();
        if (n > 0 && n <= SMALL_PIECE && partial != null && held() + n < HEADER_BYTES + partial.length()) {
            // Does not finish the frame: copied into the tail, nothing to cut.
            if (tail == null || tail.writableBytes() < n) {
                flushTail();
                int needs = HEADER_BYTES + partial.length() - held();
                tail = alloc.directBuffer(Math.min(TAIL_BYTES, needs), Math.min(TAIL_BYTES, needs));
            }
            tail.writeBytes(chunk);
            chunk.release();
            unfinished();
            return;
        }
        flushTail();
        if (n > 0) {
            cumulation.addComponent(true, chunk);
        } else {
            chunk.release();
        }
        cutFrames(cumulation, frames);
        cumulation.discardReadComponents();
        unfinished();
    }

    /** Moves the tail's bytes into the cumulation, as one component. */
    private void flushTail() {
        if (tail != null) {
            cumulation.addComponent(true, tail);
            tail = null;
        }
    }

    /** Bytes held: the cumulation's, then the tail's. */
    private int held() {
        return cumulation.readableBytes() + (tail == null ? 0 : tail.readableBytes());
    }

    /** Tracks the frame left unfinished in the cumulation, if any; fails if its bytes do not fit the budget. */
    private void unfinished() throws IOException {
        int held = held();
        if (partial != null && (held < HEADER_BYTES || cut != cutAtStart)) {
            partial.done(); // finished; another may have started
            partial = null;
        }
        if (held < HEADER_BYTES) {
            return;
        }
        if (partial == null) {
            long now = System.nanoTime();
            partial = rules.start(cumulation.getInt(cumulation.readerIndex()), peer.get(), now, this::giveUp);
            pausedAtStart = pausedNanos.getAsLong();
            cutAtStart = cut;
            if (check == null) {
                check = GlobalEventExecutor.INSTANCE.schedule(this::checkDeadline, partial.allowanceNanos(),
                        TimeUnit.NANOSECONDS);
            }
        }
        if (!partial.hold(held)) {
            String reason = partial.overBudget(held);
            drop(reason);
            throw new IOException(reason);
        }
    }

    /** The deadline check (a timer thread): fails a frame past its deadline, or looks again at the next one. */
    private void checkDeadline() {
        String reason;
        synchronized (this) {
            check = null;
            UnfinishedFrames.Frame frame = partial;
            if (frame == null || failure != null) {
                return;
            }
            long active = System.nanoTime() - frame.startNanos() - (pausedNanos.getAsLong() - pausedAtStart);
            long left = frame.allowanceNanos() - active;
            if (left > 0) {
                check = GlobalEventExecutor.INSTANCE.schedule(this::checkDeadline, left, TimeUnit.NANOSECONDS);
                return;
            }
            reason = frame.overdue(active, held() - HEADER_BYTES);
            drop(reason);
        }
        failed.accept(reason);
    }

    /** The unfinished frame was given up for a newer one (another connection's thread). */
    private void giveUp(String reason) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            drop(reason);
        }
        failed.accept(reason);
    }

    /** Fails the assembler: what it holds is released, nothing more is assembled. */
    private void drop(String reason) {
        failure = reason;
        releaseHeld();
    }

    /** Gives back the partial frame's budget, its deadline check and the buffered bytes. */
    private void releaseHeld() {
        if (partial != null) {
            partial.done();
            partial = null;
        }
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        if (tail != null) {
            tail.release();
            tail = null;
        }
        if (cumulation.refCnt() > 0) {
            cumulation.release();
        }
    }

    /** Hands every whole frame at the front of {@code from} to {@code frames} (copied out), leaving the rest. */
    private void cutFrames(ByteBuf from, Consumer<ByteBuf> frames) throws IOException {
        while (from.readableBytes() >= HEADER_BYTES) {
            int length = from.getInt(from.readerIndex());
            if (length < 0 || length > maxFrameBytes) {
                throw new IOException("bad frame header from the peer: length " + length + " is "
                        + (length < 0 ? "negative" : "over the maximum frame size of " + maxFrameBytes
                        + " bytes (sessionj.tcp.maxFrameBytes)") + "; is the peer an SJ peer?");
            }
            if (from.readableBytes() < HEADER_BYTES + length) {
                break;
            }
            from.skipBytes(HEADER_BYTES);
            ByteBuf frame = alloc.buffer(length, length);
            from.readBytes(frame, length);
            cut++;
            frames.accept(frame);
        }
    }

    /** Bytes received that do not make a whole frame yet. */
    public synchronized int partialBytes() {
        return cumulation.refCnt() > 0 ? held() : 0;
    }

    /** Buffers held for the unfinished frame (the cumulation's components and the tail): bounded by its bytes. */
    synchronized int heldBuffers() {
        return cumulation.refCnt() > 0 ? cumulation.numComponents() + (tail == null ? 0 : 1) : 0;
    }

    /** Releases what is held. */
    public synchronized void release() {
        releaseHeld();
    }
}
