package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.FrameConnection;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import org.sessionj.runtime.spi.support.HeapFrame;

/**
 * One end of a TCP connection read and written by the session's own thread with blocking socket
 * calls (no event loop): the kernel wakes the reading thread itself when a frame arrives, and a
 * flush is a {@code write} system call on the writing thread. A round trip then costs two thread
 * wake-ups, as with {@code java.net.Socket}, instead of four through an event loop
 * (docs/benchmarks.md, "TCP: blocking reads"). On a virtual thread the JDK parks the thread and
 * its poller wakes it.
 *
 * <p>The wire format is the event-loop connection's (a 4-byte length, then the frame), so either
 * end may use either kind. A selector needs to hear of readiness without reading: the first
 * {@link #readinessListener} starts a reader thread (virtual) that reads frames into an
 * {@link InboundQueue}, and from then on reads take frames from there, as on the event-loop path.
 *
 * <p>Liveness and the send timeout as on the event-loop path: a {@link BlockingKeeper} writes
 * heartbeats (a header of length {@link FrameDecoder#HEARTBEAT}) when nothing was written for the
 * interval, and closes the socket under a write that waited past the send timeout, or that waited for
 * the heartbeat timeout while the peer sent nothing at all (a frozen peer: the write fails even with
 * no send timeout); a read that heard nothing, not even a heartbeat, for the heartbeat timeout fails.
 * Heartbeats from the peer are dropped as they are read.
 *
 * <p>Reading is {@link BlockingInput}'s, writing {@link BlockingOutput}'s; this class ties them to the
 * socket, the keeper and the {@link Connection} contract, and closes. What an accepted connection holds
 * before its requester has sent a whole frame is small (a slowloris's connections wait by the thousand:
 * up to 4,096 in handshakes and 4,096 in the acceptor's queue): no buffers until it is read or written
 * (each side makes its own at its first use, the input a small one until the first frame is whole), and
 * no keeper thread until its first whole frame (its acceptor's {@link PendingHeartbeats} writes its
 * heartbeats meanwhile). Before, each held 16 KiB of buffers from the moment it was accepted,
 * and 10,000 one-byte connections took a 128 MiB heap.
 */
final class BlockingConnection implements FrameConnection, BlockingKeeper.Kept, HeartbeatCount {
    static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
    private static final long CLOSE_LINGER_SECONDS = 10;

    private final SocketChannel channel;
    /** When this end was made ({@link #acceptedNanos}). */
    private final long made = System.nanoTime();
    private final String transportName;
    private final NettySettings settings;
    private final String description;
    /** The peer's IP address ({@link #peerAddress}), read once: the socket is asked nothing afterwards. */
    private final java.net.InetAddress peer;
    /** Guards starting the reader thread of {@link #readinessListener}. */
    private final ReentrantLock pumpLock = new ReentrantLock();
    private final BlockingKeeper keeper;
    private final BlockingInput input;
    private final BlockingOutput output;
    /** The writer's frames ({@link #frameBuffer}) and the frames read, each direction reusing the one released last. */
    private final SpareFrame outbound = new SpareFrame();
    private final SpareFrame inbound = new SpareFrame();
    /** The same for the session layer's heap frames ({@link #newFrame}, {@link #readFrame}). */
    private final SpareHeapFrame outboundHeap = new SpareHeapFrame();
    private final SpareHeapFrame inboundHeap = new SpareHeapFrame();
    /** Set once a selector listens: frames then arrive through this queue. */
    private volatile InboundQueue pumped;
    private volatile boolean closed;
    /**
     * Whether its keeper was started: at once for a connection this side made ({@link #start}), with the
     * first whole frame for one an acceptor made ({@link #startOwnKeeper}); until then the acceptor's
     * {@link PendingHeartbeats} writes its heartbeats.
     */
    private volatile boolean ownKeeper;
    /** Heartbeats {@link PendingHeartbeats} wrote to it (its thread only). */
    private int pendingBeats;
    /**
     * Whether a virtual thread has written the socket or read it without a timeout, which makes the JDK
     * switch it to non-blocking mode for good ({@link PlatformWriters}): from then on handing a virtual
     * thread's writes to a platform writer gains nothing.
     */
    private volatile boolean socketSwitched;

    /** A connection over {@code channel} (connected); its keeper starts with {@link #start}. */
    BlockingConnection(SocketChannel channel, String transportName, NettySettings settings) throws IOException {
        this.channel = channel;
        this.transportName = transportName;
        this.settings = settings;
        channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(java.net.StandardSocketOptions.SO_KEEPALIVE, true);
        java.net.SocketAddress remote = channel.getRemoteAddress();
        this.peer = remote instanceof java.net.InetSocketAddress ip ? ip.getAddress() : null;
        this.description = transportName + " " + channel.getLocalAddress() + " -> " + remote + " (blocking)";
        this.keeper = new BlockingKeeper(this, settings.heartbeat());
        this.input = new BlockingInput(this, channel, keeper, settings);
        this.output = new BlockingOutput(this, channel, keeper, settings);
    }

    /** Starts the keeper (heartbeats, the send timeout, a frozen peer), once the connection is made. */
    BlockingConnection start() {
        ownKeeper = true;
        keeper.startIfNeeded();
        return this;
    }

    /**
     * Starts the keeper of an accepted connection once its requester's first whole frame is in (from then
     * on the session may read without a timeout, write, and wait: the keeper watches all that), or this
     * side writes first, or a selector or send timeout needs it. Before, an acceptor's {@link PendingHeartbeats} wrote its heartbeats.
     */
    void startOwnKeeper() {
        if (!ownKeeper) {
            ownKeeper = true;
            keeper.startIfNeeded();
        }
    }

    /** Whether the keeper was started ({@link #start}, {@link #startOwnKeeper}). */
    boolean hasOwnKeeper() {
        return ownKeeper;
    }

    /** {@link PendingHeartbeats}' thread: one heartbeat while the connection has no keeper of its own. */
    void writePendingHeartbeat() {
        pendingBeats++;
        output.writeHeartbeat();
    }

    /** How many heartbeats {@link PendingHeartbeats} wrote to it. */
    int pendingHeartbeats() {
        return pendingBeats;
    }

    /** Whether the keeper's thread runs (for tests). */
    boolean keeperStarted() {
        return keeper.started();
    }

    /** Bytes of input and output buffer this connection holds (for tests). */
    int bufferBytes() {
        return input.bufferBytes() + output.bufferBytes();
    }

    @Override
    public void sendTimeout(long timeoutNanos) {
        ownKeeper = true;
        keeper.sendTimeout(timeoutNanos);
    }

    @Override
    public ByteBufAllocator alloc() {
        return ALLOC;
    }

    // ---- writing: BlockingOutput ----

    /** The frame this connection's writer released last, or a new heap frame: no pooled allocation ({@link SpareFrame}). */
    @Override
    public ByteBuf frameBuffer(int capacityHint) {
        return outbound.take(capacityHint);
    }

    /** A frame for {@code length} bytes read: the one the reader released last, or a new one ({@link SpareFrame}). */
    ByteBuf inboundFrame(int length) {
        return inbound.take(length);
    }

    /** A heap frame for {@code length} bytes read: the one the session layer released last, or a new one. */
    HeapFrame inboundHeapFrame(int length) {
        return inboundHeap.take(length);
    }

    /** The session layer's frame to write next: the one this connection's writer released last, or a new one. */
    @Override
    public Frame newFrame(int capacityHint) {
        return outboundHeap.take(capacityHint);
    }

    @Override
    public void writeFrame(Frame frame) throws IOException {
        if (!ownKeeper) {
            startOwnKeeper(); // as write(ByteBuf)
        }
        output.write(frame);
    }

    /** Both under one hold of the write lock ({@link BlockingOutput#writeAndFlush}). */
    @Override
    public void writeFrameAndFlush(Frame frame) throws IOException {
        if (!ownKeeper) {
            startOwnKeeper(); // as write(ByteBuf)
        }
        output.writeAndFlush(frame); // fails on a closed connection as writeFrame does
    }

    @Override
    public void write(ByteBuf frame) throws IOException {
        if (!ownKeeper) {
            startOwnKeeper(); // this side writes: its keeper watches the write (a frozen peer, the send timeout)
        }
        output.write(frame);
    }

    /** Fails a write on a connection this side closed, or whose peer closed its side. */
    void checkWritable() throws IOException {
        if (closed) {
            throw new IOException("connection already closed (" + description + ")");
        }
        if (input.endOfStream()) {
            throw new IOException("connection closed by the peer (" + description + ")");
        }
    }

    @Override
    public void flush() throws IOException {
        if (closed) {
            throw new IOException("connection already closed (" + description + ")");
        }
        output.flush();
    }

    @Override
    public boolean writeHeartbeat() {
        return output.writeHeartbeat();
    }

    @Override
    public void abort() {
        closeQuietly();
    }

    /**
     * Bytes read from the socket, or what the keeper last heard waiting in it as well if that is more, less
     * the heartbeats read (as on the event-loop path, a requester that sends only heartbeats has sent
     * nothing: before, blocking tcp counted them, so a slowloris that sent a heartbeat a second was never
     * taken for stalled and held its handshake slot for the whole initiation timeout; heartbeats still
     * waiting unread count until they are read); -1 once closed. No system call: a server at its
     * pending-handshake limit asks this of every handshake each time it looks for a stalled one to drop,
     * and before, asking the socket how much waited ({@code FIONREAD}) 4,096 times a look held the drops
     * of a 10,000-connection slowloris to ~150 a second, so a real requester behind them waited past its
     * initiation timeout. Bytes that wait unread are seen at most a keeper's look later.
     */
    @Override
    public long receivedBytes() {
        if (closed) {
            return -1;
        }
        long heard = Math.max(keeper.receivedCount(), keeper.heard());
        return Math.max(0, heard - (long) FrameDecoder.HEADER_BYTES * input.heartbeatsReceived());
    }

    @Override
    public long acceptedNanos() {
        return made;
    }

    /** The keeper looks at it once per heartbeat interval while nothing is written (adv18 A13). */
    @Override
    public void ownerWatch(org.sessionj.runtime.spi.OwnerWatch watch) {
        keeper.ownerWatch(watch);
    }

    @Override
    public java.net.InetAddress peerAddress() {
        return peer;
    }

    @Override
    public int unread() {
        return input.unread();
    }

    // ---- reading: BlockingInput ----

    @Override
    public ByteBuf read(long timeoutNanos) throws IOException {
        InboundQueue queue = pumped;
        if (queue != null) {
            return queue.take(timeoutNanos);
        }
        if (closed) {
            String reason = input.frameFailure();
            throw new IOException(reason != null ? reason : "connection already closed (" + description + ")");
        }
        ByteBuf frame = input.read(timeoutNanos);
        if (frame != null && !ownKeeper) {
            startOwnKeeper(); // the requester's first frame: the session's own keeper from now on
        }
        return frame;
    }

    /**
     * {@link #read} for the session layer: one of SJ's heap frames (no Netty buffer, no reference count), or
     * a view of the buffer a selector's reader thread queued.
     */
    @Override
    public Frame readFrame(long timeoutNanos) throws IOException {
        InboundQueue queue = pumped;
        if (queue != null) {
            ByteBuf buf = queue.take(timeoutNanos);
            return buf == null ? null : new ByteBufFrame(buf);
        }
        if (closed) {
            String reason = input.frameFailure();
            throw new IOException(reason != null ? reason : "connection already closed (" + description + ")");
        }
        Frame frame = input.readHeap(timeoutNanos);
        if (frame != null && !ownKeeper) {
            startOwnKeeper(); // as read
        }
        return frame;
    }

    @Override
    public long heartbeatsReceived() {
        return input.heartbeatsReceived();
    }

    @Override
    public boolean isReadable() {
        InboundQueue queue = pumped;
        if (queue != null) {
            return queue.isReadable();
        }
        return input.isReadable();
    }

    @Override
    public void readinessListener(Runnable listener) {
        startOwnKeeper();
        pumpLock.lock();
        try {
            setListener(listener);
        } finally {
            pumpLock.unlock();
        }
    }

    private void setListener(Runnable listener) {
        InboundQueue queue = pumped;
        if (queue == null) {
            if (listener == null) {
                return;
            }
            queue = new InboundQueue(settings.spins(), () -> description);
            queue.wakeListener(listener);
            pumped = queue;
            InboundQueue target = queue;
            Thread.ofVirtual().name("sj-tcp-reader").start(() -> input.pump(target));
            return;
        }
        queue.wakeListener(listener);
    }

    // ---- the rest ----

    /** A virtual thread writes the socket, or reads it without a timeout: the JDK switches it to non-blocking mode for good. */
    void socketSwitched() {
        if (!socketSwitched) {
            socketSwitched = true;
        }
    }

    /** Whether the socket is in non-blocking mode for good ({@link #socketSwitched}). */
    boolean socketSwitchedForGood() {
        return socketSwitched;
    }

    /** The failure of a read that heard nothing, not even a heartbeat, for the heartbeat timeout. */
    IOException silence() {
        return new IOException("no data and no heartbeat from the peer for "
                + java.time.Duration.ofNanos(keeper.silenceNanos())
                + ": its process is frozen or gone, or the network path is broken (sessionj.heartbeat.timeout)"
                + " (" + description + ")");
    }

    /** What a failed socket call {@code doing} ("reading", "writing") reports, with the reason the connection ended if known. */
    IOException failure(String doing, IOException e) {
        String dropped = input.frameFailure();
        if (dropped != null) {
            return new IOException(dropped + "; the connection is closed", e);
        }
        if (keeper.frozen()) {
            return new IOException("the peer took nothing and sent nothing, not even a heartbeat, for "
                    + java.time.Duration.ofNanos(keeper.silenceNanos()) + " while this side was writing: its process"
                    + " is frozen or gone, or the network path is broken (sessionj.heartbeat.timeout); the connection"
                    + " is closed (" + description + ")", e);
        }
        if (keeper.silent() && doing.equals("reading")) {
            return silence();
        }
        if (keeper.timedOut() && doing.equals("writing")) {
            return new org.sessionj.runtime.spi.WriteTimeoutException("the peer took nothing for "
                    + java.time.Duration.ofNanos(keeper.sendTimeoutNanos()) + " while this side was " + doing
                    + "; the connection is closed (" + description + ")");
        }
        if (closed || e instanceof AsynchronousCloseException || e instanceof ClosedChannelException) {
            if (e instanceof ClosedByInterruptException) {
                return new InterruptedIOException("interrupted while " + doing + " (" + description + ")");
            }
            return new IOException("connection already closed (" + description + ")", e);
        }
        return new IOException("connection closed by the peer or broken while " + doing + " (" + description + "): "
                + e.getMessage(), e);
    }

    @Override
    public String transportName() {
        return transportName;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /**
     * Sends what was written and not flushed (bounded by a linger: a peer that never reads must not
     * hold the closer), then closes the socket; a blocked reader wakes up at once.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopReadingAndKeeping();
        flushThenCloseSocket();
    }

    /**
     * A failed session's close: as {@link #close}, but the closer does not wait for the peer. What is buffered
     * (the failure notice) is written by a thread of its own, bounded by the linger as the closer's flush is, so a
     * peer that reads takes it before the end and one that takes nothing holds no program thread: before, a failed
     * session's close waited here up to 10 s for a peer that never read (an honest client waited behind it in the
     * tally demo's selector loop), and the notice's flush before it waited without bound.
     */
    @Override
    public void closeFailed() {
        if (closed) {
            return;
        }
        closed = true;
        stopReadingAndKeeping();
        if (!output.hasBuffered()) {
            closeQuietly(); // nothing to send: no thread
            return;
        }
        Thread.ofVirtual().name("sj-failed-close").start(this::flushThenCloseSocket);
    }

    private void stopReadingAndKeeping() {
        keeper.stop();
        input.closed();
        InboundQueue queue = pumped;
        if (queue != null) {
            queue.close();
        }
    }

    /** The closing flush of what is buffered, bounded by the linger's watchdog, then the socket's close. */
    private void flushThenCloseSocket() {
        Thread watchdog = Thread.ofVirtual().unstarted(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(CLOSE_LINGER_SECONDS));
                closeQuietly();
            } catch (InterruptedException e) {
                // the close completed
            }
        });
        output.flushOnClose(watchdog);
        watchdog.interrupt();
        closeQuietly();
    }

    /** Closes the socket without flushing: a blocked reader or writer fails at once. */
    void closeQuietly() {
        try {
            channel.close();
        } catch (IOException e) {
            // closed anyway
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
