package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.function.Supplier;
import org.sessionj.runtime.spi.support.HandoffQueue;
import org.sessionj.runtime.spi.support.SpinThenPark;

/** The frames received on a tunnelled connection and not yet read, with why the stream ended if it broke. */
final class FrameQueue extends HandoffQueue<ByteBuf> {
    private final Supplier<String> description;
    private volatile String failure;

    FrameQueue(int spins, Supplier<String> description) {
        super(new SpinThenPark(spins));
        this.description = description;
    }

    void add(ByteBuf frame) {
        if (!offer(frame)) {
            frame.release();
        }
    }

    /** The stream broke: the reader gets the frames before, then {@code reason}. */
    void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
        end();
    }

    boolean isReadable() {
        if (!enterConsumer()) {
            return true;
        }
        try {
            return peek() != null || isEnded();
        } finally {
            exitConsumer();
        }
    }

    @Override
    protected void release(ByteBuf frame) {
        frame.release();
    }

    @Override
    protected IOException closedException() {
        return new IOException("connection already closed (" + description.get() + ")");
    }

    @Override
    protected IOException endedException() {
        String why = failure;
        return why == null ? new IOException("connection closed by the peer (" + description.get() + ")")
                : new IOException("connection broken (" + description.get() + "): " + why);
    }

    @Override
    protected InterruptedIOException interruptedException() {
        return new InterruptedIOException("interrupted while reading from " + description.get());
    }
}
