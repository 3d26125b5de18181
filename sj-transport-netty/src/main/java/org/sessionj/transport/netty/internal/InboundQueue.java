package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.sessionj.runtime.spi.support.HandoffQueue;
import org.sessionj.runtime.spi.support.SpinThenPark;

/**
 * The frames received on one connection and not yet read: the channel's event loop is the single
 * producer, the connection's reader the single consumer (see {@link HandoffQueue}).
 *
 * <p>Three ways to end: the channel's end (it went inactive, perhaps after a {@linkplain #fail
 * failure}), which the reader sees after every queued frame; the local {@link #close}, which the
 * reader sees at once and which releases the queued frames; and timeouts, which are not an end.
 * Public for the other Netty-based transports (http), whose connections read frames the same way.
 */
public final class InboundQueue extends HandoffQueue<ByteBuf> {
    /** Names the connection in error messages; computed only when one is needed. */
    private final Supplier<String> description;
    /** Told of each frame released unread (the local close), before it is released; or null. */
    private final Consumer<ByteBuf> releasedUnread;
    /** Why the channel ended, if it broke rather than closed. */
    private volatile Throwable failure;

    /** A queue whose reader spins {@code spins} polls before parking; {@code description} names the connection. */
    public InboundQueue(int spins, Supplier<String> description) {
        this(spins, description, null);
    }

    /**
     * A queue whose reader spins {@code spins} polls before parking; {@code description} names the connection;
     * {@code releasedUnread} (or null) is told of each frame the queue took over and releases without a reader having
     * taken it, so that what a connection charges for its queued frames comes back either way.
     */
    public InboundQueue(int spins, Supplier<String> description, Consumer<ByteBuf> releasedUnread) {
        super(new SpinThenPark(spins));
        this.description = description;
        this.releasedUnread = releasedUnread;
    }

    /**
     * Producer (event loop): appends a frame and wakes the reader; releases it if this end is closed.
     *
     * @return whether the queue took the frame over (false: this end was closed, the frame released, and
     *     {@code releasedUnread} not told of it)
     */
    public boolean add(ByteBuf frame) {
        if (!offer(frame)) {
            frame.release();
            return false;
        }
        return true;
    }

    /** Records why the channel broke, before {@link #end} reports it. */
    public void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    /** Reader: whether a read would return at once (a frame, the end, or the local close). */
    public boolean isReadable() {
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
        if (releasedUnread != null) {
            releasedUnread.accept(frame);
        }
        frame.release();
    }

    @Override
    protected IOException closedException() {
        return new IOException("connection already closed (" + description.get() + ")");
    }

    @Override
    protected IOException endedException() {
        Throwable cause = failure;
        if (cause == null) {
            return new IOException("connection closed by the peer (" + description.get() + ")");
        }
        return new IOException("connection broken (" + description.get() + "): " + reason(cause), cause);
    }

    @Override
    protected InterruptedIOException interruptedException() {
        return new InterruptedIOException("interrupted while reading from " + description.get());
    }

    /** The most telling message of a failure: Netty wraps decoder and TLS errors. */
    static String reason(Throwable cause) {
        Throwable t = cause;
        while (t.getCause() != null && (t.getMessage() == null || t.getMessage().equals(t.getCause().toString()))) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
