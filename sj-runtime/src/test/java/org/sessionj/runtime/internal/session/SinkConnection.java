package org.sessionj.runtime.internal.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayDeque;
import org.sessionj.runtime.spi.Connection;

/**
 * A test connection: frames written are counted and dropped; frames to read are queued by the test.
 * Tests that need more (keeping what is written, passing references) extend it.
 */
class SinkConnection implements Connection {
    final ArrayDeque<ByteBuf> toRead = new ArrayDeque<>();
    long framesWritten;
    long bytesWritten;
    boolean closed;

    @Override
    public ByteBufAllocator alloc() {
        return ByteBufAllocator.DEFAULT;
    }

    @Override
    public void write(ByteBuf frame) {
        framesWritten++;
        bytesWritten += frame.readableBytes();
        frame.release();
    }

    @Override
    public void flush() {
    }

    @Override
    public ByteBuf read(long timeoutNanos) {
        return toRead.poll();
    }

    @Override
    public boolean isReadable() {
        return !toRead.isEmpty();
    }

    @Override
    public void readinessListener(Runnable listener) {
    }

    @Override
    public String transportName() {
        return "sink";
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
    }
}
