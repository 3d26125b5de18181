package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Cuts a byte stream (arriving in chunks of any size) into frames: a 4-byte big-endian length, then
 * that many bytes, as on a tcp connection. A length that is negative or over the maximum means the
 * peer is not an SJ peer (or is broken): {@link #feed} fails naming the length found.
 */
public final class FrameAssembler {
    /** Bytes of the length in front of every frame. */
    public static final int HEADER_BYTES = 4;

    private final ByteBufAllocator alloc;
    private final int maxFrameBytes;
    private final CompositeByteBuf cumulation;

    /** An assembler of frames of up to {@code maxFrameBytes}. */
    public FrameAssembler(ByteBufAllocator alloc, int maxFrameBytes) {
        this.alloc = alloc;
        this.maxFrameBytes = maxFrameBytes;
        this.cumulation = alloc.compositeBuffer(Integer.MAX_VALUE);
    }

    /**
     * Adds {@code chunk} (taking ownership) and hands every frame it completes to {@code frames}. With
     * nothing partial held (a request-response exchange: every chunk is whole frames), the frames are
     * copied straight out of the chunk, and only a partial frame at its end is kept: no component is
     * added to and discarded from the composite per message.
     */
    public void feed(ByteBuf chunk, Consumer<ByteBuf> frames) throws IOException {
        if (!cumulation.isReadable()) {
            try {
                cutFrames(chunk, frames);
            } catch (IOException | RuntimeException e) {
                chunk.release();
                throw e;
            }
            if (!chunk.isReadable()) {
                chunk.release();
                return;
            }
        }
        if (chunk.isReadable()) {
            cumulation.addComponent(true, chunk);
        } else {
            chunk.release();
        }
        cutFrames(cumulation, frames);
        cumulation.discardReadComponents();
    }

    /** Hands every whole frame at the front of {@code from} to {@code frames} (copied out), leaving the rest. */
    private void cutFrames(ByteBuf from, Consumer<ByteBuf> frames) throws IOException {
        while (from.readableBytes() >= HEADER_BYTES) {
            int length = from.getInt(from.readerIndex());
            if (length < 0 || length > maxFrameBytes) {
                throw new IOException("bad frame header from the peer: length " + length + " is "
                        + (length < 0 ? "negative" : "over the maximum frame size of " + maxFrameBytes
                        + " bytes (sj.tcp.maxFrameBytes)") + "; is the peer an SJ peer?");
            }
            if (from.readableBytes() < HEADER_BYTES + length) {
                break;
            }
            from.skipBytes(HEADER_BYTES);
            ByteBuf frame = alloc.buffer(length, length);
            from.readBytes(frame, length);
            frames.accept(frame);
        }
    }

    /** Bytes received that do not make a whole frame yet. */
    public int partialBytes() {
        return cumulation.readableBytes();
    }

    /** Releases what is held. */
    public void release() {
        if (cumulation.refCnt() > 0) {
            cumulation.release();
        }
    }
}
