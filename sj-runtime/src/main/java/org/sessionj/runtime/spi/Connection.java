package org.sessionj.runtime.spi;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;

/**
 * One end of a reliable, ordered, full-duplex frame connection (the paper's {@code SJConnection}).
 * Frames arrive whole and in order; a stream transport frames them itself (docs/wire-format.md).
 *
 * <p>Threading: one thread writes and one thread reads at a time (they may differ); {@link #close}
 * may be called from any thread. The peer detects a close on its next read, after it has read every
 * frame written before the close, and a blocked read wakes up in bounded time.
 *
 * <p>Optional capabilities (such as {@link LocalConnection}) are discovered with {@link #capability}.
 */
public interface Connection extends AutoCloseable {

    /** The allocator for frames written to this connection (pooled). */
    ByteBufAllocator alloc();

    /**
     * A buffer for the next frame to {@link #write}, by the writing thread: a session's batch of
     * output. The default takes it from {@link #alloc()}; a transport whose frames come back to it
     * when the reader releases them (the in-JVM one) hands out a recycled buffer, so that a long
     * session allocates nothing per message.
     *
     * @param capacityHint the initial capacity; the buffer grows as written
     */
    default ByteBuf frameBuffer(int capacityHint) {
        return alloc().buffer(capacityHint);
    }

    /**
     * Queues {@code frame} for the peer; the connection takes ownership (releases it, or hands it to
     * the peer who does). It may not be sent before {@link #flush()}.
     *
     * @throws IOException if this end or the peer has closed; the frame is released
     */
    void write(ByteBuf frame) throws IOException;

    /**
     * Sends everything written so far. When the transport's outbound bound is reached (the peer
     * does not take what was sent), waits for room, at most the {@linkplain #sendTimeout send timeout}.
     *
     * @throws WriteTimeoutException if the send timeout passed first
     */
    void flush() throws IOException;

    /**
     * Bounds how long {@link #write} and {@link #flush} wait for room when the peer does not read:
     * past {@code timeoutNanos} they throw {@link WriteTimeoutException}. Negative (the initial
     * setting): they wait as long as the connection lives. A transport whose writes never wait (its
     * outbound queue is unbounded) may ignore it.
     */
    default void sendTimeout(long timeoutNanos) {
    }

    /**
     * Waits for the next frame; the caller owns (and must release) it.
     *
     * @param timeoutNanos how long to wait; negative waits forever
     * @return the frame, or {@code null} if the timeout passed first
     * @throws IOException if the peer closed (after every earlier frame was read) or the connection broke
     */
    ByteBuf read(long timeoutNanos) throws IOException;

    /** Whether a {@link #read} would return at once (a frame, or the close). Called by the reading thread. */
    boolean isReadable();

    /**
     * How much the peer has sent so far, for telling a peer that stalled from a reader that is slow to
     * get to it (a server starved of CPU): bytes received from the peer, read or still waiting,
     * heartbeats not counted where the transport tells them apart cheaply; {@code -1} if the transport
     * does not know (the default). Any thread; a hint, not synchronised with {@link #read}.
     */
    default long receivedBytes() {
        return -1;
    }

    /** What {@link #acceptedNanos} returns when the transport does not say when the connection was accepted. */
    long UNKNOWN_TIME = Long.MIN_VALUE;

    /**
     * When this end was made ({@code System.nanoTime()}: accepted, on a server), so that a server counts
     * a requester's time from its connection, including any time it waited in the acceptor's queue for
     * a handshake to start; {@link #UNKNOWN_TIME} if the transport does not say (the default), and the
     * time then counts from the start of the handshake.
     */
    default long acceptedNanos() {
        return UNKNOWN_TIME;
    }

    /**
     * The address the peer connects from, so that a server at its pending-handshake limit drops the stalled
     * handshakes of the address that holds the most slots first (one source of many connections cannot
     * push out another's), and so that a session delegated to this runtime is resumed only where its
     * delegator may send it (docs/delegation.md, "Where a new owner reconnects"); {@code null} if the
     * transport has no such address or does not say (the default). Any thread; no system call.
     */
    default java.net.InetAddress peerAddress() {
        return null;
    }

    /**
     * Sets the watch of the session that runs over this connection (the runtime calls it when the session
     * starts, and again on the new connection when the peer delegates). A transport with a timer of its own
     * per connection (heartbeats) asks it once per interval, through {@link
     * org.sessionj.runtime.spi.support.OwnerLook}, whether the session's thread has ended with the session
     * open, so that the peer is told rather than kept waiting (adv18 A13). The default ignores it (in-JVM
     * ends have their own orphan rule, {@code sessionj.shm.orphanTimeout}).
     */
    default void ownerWatch(OwnerWatch watch) {
    }

    /**
     * Whether a whole frame from the peer is waiting unread (a hint for the same purpose as
     * {@link #receivedBytes}, from any thread; {@code false} if the transport cannot tell without
     * reading, the default).
     */
    default boolean frameWaiting() {
        return false;
    }

    /**
     * Sets the one listener run whenever this end may have become readable (a frame arrived or the
     * peer closed); {@code null} removes it. It runs on the writer's or closer's thread, so it must be
     * short and must not block. Used by selectors.
     */
    void readinessListener(Runnable listener);

    /** The name of the transport that made this connection. */
    String transportName();

    /** Whether this end has been closed (by {@link #close}). */
    boolean isClosed();

    /**
     * Closes this end; the peer's next read reports it, after every frame written before. Returns
     * once those frames have left this process (or a bound of the transport's passed), so a process
     * may exit right after closing without losing them. Idempotent.
     */
    @Override
    void close();

    /**
     * Closes this end of a session that has failed: nothing more is owed to the peer, so the caller does
     * not wait for it. What was written and not yet sent (the failure notice, usually) still goes out if
     * the peer takes it, in the background and within the transport's close bound, or is dropped; the
     * caller's thread is free at once, where {@link #close} would wait up to that bound (10 s over
     * {@code tcp} and {@code tls}) for a peer that takes nothing. The default is {@link #close}, for
     * transports whose close never waits for the peer. Idempotent, and a no-op after {@link #close}.
     */
    default void closeFailed() {
        close();
    }

    /**
     * This connection as the capability {@code type} (e.g. {@link LocalConnection}), or {@code null} if
     * it does not have it. The default answers by {@code instanceof}; wrappers may delegate.
     */
    default <C> C capability(Class<C> type) {
        return type.isInstance(this) ? type.cast(this) : null;
    }
}
