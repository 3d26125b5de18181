package org.sessionj.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.unpadded.MpscUnboundedUnpaddedArrayQueue;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.support.RecyclableFrame;

/**
 * One end of a TCP (or TLS) connection, over a Netty channel.
 *
 * <p>Reading: the event loop decodes frames into an {@link InboundQueue}; a blocked reader spins,
 * then parks. When more than {@link NettySettings#inboundHighBytes} wait unread the channel stops
 * reading the socket, so a peer that writes faster than we read is held back by TCP itself; so does a
 * connection past its share while the process's budget for unread frames is spent ({@link UnreadBytes}).
 *
 * <p>Writing: {@link #write} queues the frame (no task, no allocation); {@link #flush} schedules one
 * drain task on the event loop, which frames the queued messages (small ones copied behind their
 * length into one batch buffer, large ones sent as they are) and flushes the channel. A writer
 * whose bytes are not leaving (the peer does not read) parks in {@link #flush} until the channel
 * is writable again or the connection ends.
 */
public class NettyConnection implements Connection, RecyclableFrame.Home, HeartbeatCount {
    /** Frames up to this size are copied into the batch buffer; larger ones travel as they are. */
    private static final int SMALL_FRAME = 1024;
    private static final int BATCH_BYTES = 16 * 1024;
    private static final long CLOSE_LINGER_SECONDS = 10;
    /**
     * What each queued frame costs beyond its bytes (its buffer object, reference count, slice of the read
     * buffer or heap frame, queue slot), charged against the inbound and outbound marks with its bytes. The marks
     * counted bytes only, so a peer that pipelined 16-byte frames and never read the 9-byte answers made each
     * connection queue ~60,000 frames each way, ~8 MB of heap for the 1.5 MiB the marks allow, and 20 such peers
     * filled a 128 MiB server (hostile H6). Now a mark of 1 MiB holds at most ~7,000 such frames.
     */
    public static final int FRAME_COST = 128;
    private static final VarHandle FLUSH_SCHEDULED;
    private static final VarHandle RESUME_REQUESTED;
    private static final VarHandle CLOSED;
    private static final VarHandle SPARE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            FLUSH_SCHEDULED = lookup.findVarHandle(NettyConnection.class, "flushScheduled", int.class);
            RESUME_REQUESTED = lookup.findVarHandle(NettyConnection.class, "resumeRequested", int.class);
            CLOSED = lookup.findVarHandle(NettyConnection.class, "closed", boolean.class);
            SPARE = lookup.findVarHandle(NettyConnection.class, "spare", RecyclableFrame.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Channel channel;
    /** When this end was made ({@link #acceptedNanos}). */
    private final long made = System.nanoTime();
    private final String transportName;
    private final NettySettings settings;
    private final InboundQueue inbound;
    // Unpadded: one per connection, and the padded queue's ~0.5 KB was 3 % of a server's CPU in a burst of sessions.
    private final MpscUnboundedUnpaddedArrayQueue<ByteBuf> outbound = new MpscUnboundedUnpaddedArrayQueue<>(16);
    /** The frame the event loop released last, for the writer's next frame ({@link RecyclableFrame}). */
    @SuppressWarnings("unused")
    private volatile RecyclableFrame spare;
    /** The frame the reader released last, for the decoder's next small frame ({@link #inboundFrame}). */
    private final SpareFrame inboundSpare = new SpareFrame();
    /** Bytes written but not yet handed to the channel. */
    private final AtomicLong outboundBytes = new AtomicLong();
    /** Bytes received but not yet read. */
    private final AtomicLong inboundBytes = new AtomicLong();
    /** Frame bytes (not heartbeats) received from the peer so far; written by the event loop only. */
    private volatile long receivedBytes;
    /** Heartbeats received from the peer so far; written by the event loop only. */
    private volatile long heartbeatsReceived;
    private final Runnable drainTask = this::drainOutbound;
    private final Runnable resumeTask = this::resumeReading;
    /** Computed on first use: a client channel has no addresses before it connects. */
    private String description;

    private ChannelHandlerContext ctx;
    /** Event loop only: whether reading from the socket is paused. */
    private boolean readPaused;
    /** Event loop only: when reading was last paused (the event loop's clock), and the paused time before it. */
    private long pausedSince;
    private long pausedBefore;
    /** Readers' view of {@link #readPaused}: whether they must ask the event loop to resume. */
    private volatile boolean readPausedHint;
    /** When reading was last paused ({@link System#nanoTime}), for a writer waiting meanwhile ({@link #stuck}). */
    private volatile long pausedAtNanos;
    /** The heartbeats of this connection's channel, told when reading resumes; null without heartbeats. */
    private Heartbeats heartbeats;
    /** The session's watch over this connection, asked by the heartbeats whether its thread ended (adv18 A13); or null. */
    private volatile org.sessionj.runtime.spi.OwnerWatch ownerWatch;
    @SuppressWarnings("unused")
    private volatile int flushScheduled;
    @SuppressWarnings("unused")
    private volatile int resumeRequested;
    private volatile boolean closed;
    private volatile Thread blockedWriter;
    /** Writer thread only: bytes written since the last flush. */
    private long unflushedBytes;
    /** How long a writer waits for room; negative: as long as the connection lives. */
    private volatile long sendTimeoutNanos = -1;
    /**
     * A write waited past the send timeout: the peer takes nothing, so a close drops what is unsent and
     * does not wait for it (before, the close after a send timeout waited out the 10 s linger: a send
     * with a 2 s timeout failed after 12 s).
     */
    private volatile boolean writeTimedOut;
    /**
     * Why the channel failed (a heartbeat timeout, a bad frame, a broken socket), or null: a writer
     * blocked for room when it ends is told this, not that its flush went well.
     */
    private volatile Throwable failure;

    /** A connection over {@code channel} (not yet in a pipeline: see {@link #handler()}). */
    public NettyConnection(Channel channel, String transportName, NettySettings settings) {
        this.channel = channel;
        this.transportName = transportName;
        this.settings = settings;
        this.inbound = new InboundQueue(settings.spins(), this::describe,
                frame -> uncharge(inboundCharge(frame)));
    }

    /** The handler that feeds this connection; add it last to the channel's pipeline. */
    public ConnectionHandler handler() {
        return new ConnectionHandler(this);
    }

    /** The channel under this connection. */
    public Channel channel() {
        return channel;
    }

    @Override
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /**
     * The frame the event loop released last, or a new heap frame: no pooled allocation on the
     * writer's thread (see {@link RecyclableFrame}), none at all in steady state.
     */
    @Override
    public ByteBuf frameBuffer(int capacityHint) {
        RecyclableFrame frame = (RecyclableFrame) SPARE.getAndSet(this, null);
        return frame != null ? frame.reuse() : new RecyclableFrame(this, Math.max(capacityHint, 64));
    }

    /** A released frame of this connection comes back; false when a spare is already there. */
    @Override
    public boolean giveBack(RecyclableFrame frame) {
        return SPARE.compareAndSet(this, null, frame);
    }

    @Override
    public void write(ByteBuf frame) throws IOException {
        int length = frame.readableBytes();
        if (closed) {
            frame.release();
            throw new IOException("connection already closed (" + describe() + ")");
        }
        if (length > settings.maxFrameBytes()) {
            frame.release();
            throw new IOException("cannot send a frame of " + length + " bytes: the maximum frame size is "
                    + settings.maxFrameBytes() + " bytes (sessionj.tcp.maxFrameBytes)");
        }
        if (!channel.isActive()) {
            frame.release();
            throw endedWhileWriting();
        }
        outbound.offer(frame);
        int charge = outboundCharge(frame);
        outboundBytes.getAndAdd(charge);
        unflushedBytes += charge;
        if (closed || !channel.isActive()) {
            // Ended meanwhile: a drain on the event loop sends or releases what is queued. Only a
            // local close is reported here: the frame may have gone out (with an earlier drain) just
            // before the peer closed, and a lost frame shows at the next read anyway.
            scheduleDrain();
            if (closed) {
                throw endedWhileWriting();
            }
            return;
        }
        if (unflushedBytes > settings.outboundHighBytes()) {
            flush();
        }
    }

    @Override
    public void flush() throws IOException {
        if (closed) {
            throw new IOException("connection already closed (" + describe() + ")");
        }
        unflushedBytes = 0;
        if (!channel.isActive()) {
            // Frames still queued can no longer go out (the drain releases them). With nothing
            // queued, everything written was sent before the channel ended: no error (the peer may
            // well have closed after reading it).
            boolean unsent = !outbound.isEmpty();
            scheduleDrain();
            if (unsent) {
                throw endedWhileWriting();
            }
            return;
        }
        scheduleDrain();
        if (!isWritable() && !channel.eventLoop().inEventLoop()) {
            awaitWritable();
        }
    }

    private void scheduleDrain() {
        if (FLUSH_SCHEDULED.compareAndSet(this, 0, 1)) {
            channel.eventLoop().execute(drainTask);
        }
    }

    private boolean isWritable() {
        return channel.isWritable() && outboundBytes.get() <= settings.outboundHighBytes();
    }

    @Override
    public void sendTimeout(long timeoutNanos) {
        this.sendTimeoutNanos = timeoutNanos;
    }

    private void awaitWritable() throws IOException {
        blockedWriter = Thread.currentThread();
        long timeout = sendTimeoutNanos;
        long deadline = System.nanoTime() + timeout;
        long stuckNanos = settings.heartbeat().enabled() ? settings.heartbeat().timeoutNanos() : -1;
        long takenSince = System.nanoTime();
        long unsent = Long.MAX_VALUE;
        // What this writer holds for its peer counts toward the process's budget while it waits (a whole
        // frame is queued before the wait): a peer that takes nothing for longest is given up for room.
        UnsentBytes.Wait held = settings.unsent().await(heldBytes(), null, this::giveUpWriting);
        try {
            while (true) {
                VarHandle.fullFence();
                if (closed) {
                    throw new IOException("connection closed while waiting to write (" + describe() + ")");
                }
                if (!channel.isActive()) {
                    // As in flush: only frames still queued here are surely unsent. What was handed to
                    // the channel may have gone out before the peer closed; if not, the next read or
                    // write reports the end. But a channel that failed (the peer went silent under this
                    // blocked write: frozen or gone) failed with what this writer was waiting to send.
                    if (!outbound.isEmpty() || failure != null) {
                        throw endedWhileWriting();
                    }
                    return;
                }
                if (channel.isWritable() && outboundBytes.get() <= settings.outboundLowBytes()) {
                    return;
                }
                long park = Long.MAX_VALUE;
                if (stuckNanos > 0 && readPausedHint) {
                    long now = System.nanoTime();
                    long left = outboundBytes.get() + pendingInChannel();
                    if (left < unsent) {
                        takenSince = now; // the peer took something: it reads
                    }
                    unsent = left;
                    long since = Math.max(takenSince, pausedAtNanos);
                    if (now - since >= stuckNanos) {
                        stuck(now - since);
                        throw endedWhileWriting();
                    }
                    park = since + stuckNanos - now;
                }
                if (timeout < 0 && park == Long.MAX_VALUE) {
                    LockSupport.park(this);
                } else if (timeout < 0) {
                    LockSupport.parkNanos(this, park);
                } else {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        writeTimedOut = true;
                        throw new org.sessionj.runtime.spi.WriteTimeoutException("the peer took nothing for "
                                + java.time.Duration.ofNanos(timeout) + " with " + outboundBytes.get()
                                + " bytes waiting to be sent (" + describe() + ")");
                    }
                    LockSupport.parkNanos(this, Math.min(remaining, park));
                }
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting to write to " + describe());
                }
            }
        } finally {
            held.end();
            blockedWriter = null;
        }
    }

    /**
     * What this connection holds unsent, the frames queued here and the bytes in the channel, as the event loop sees
     * them. Read from another thread the sum could count a batch twice: {@link #drainOutbound} hands it to the channel
     * and flushes before it takes it off {@link #outboundBytes}, so a writer that read the two meanwhile was charged
     * up to twice its frame (a 4 MiB frame as 8 MiB, over a 6 MiB budget by itself: the likely cause of
     * TcpUnsentBytesTest's failure under load). One task on the
     * event loop per wait for room (never per message); the racy sum if the event loop does not answer within a
     * second or has ended.
     */
    private long heldBytes() {
        if (channel.eventLoop().inEventLoop()) {
            return outboundBytes.get() + pendingInChannel();
        }
        CompletableFuture<Long> seen = new CompletableFuture<>();
        try {
            channel.eventLoop().execute(() -> seen.complete(outboundBytes.get() + pendingInChannel()));
            return seen.get(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the wait below reports it
        } catch (ExecutionException | TimeoutException | java.util.concurrent.RejectedExecutionException e) {
            // fall back to the sum read here
        }
        return outboundBytes.get() + pendingInChannel();
    }

    /** Bytes handed to the channel and not yet written to the socket (0 once it closed). */
    private long pendingInChannel() {
        io.netty.channel.ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    /**
     * Neither side can move: this side stopped reading the peer (its program, in this send, is behind by more than
     * the connection may hold) and the peer has taken nothing this side wrote for the heartbeat timeout. This
     * side cannot hear the peer's heartbeats while it does not read, so the heartbeat rule alone would wait for
     * ever here, with both kernels' buffers full, whether the peer lives or is long gone (hostile H6). A live
     * SJ peer does not get here: it reads what this side sends before it sends what comes after in the protocol,
     * so frames wait unread behind a send only from a peer that sends ahead of the protocol. Fails the connection
     * with the reason and drops what is unsent.
     */
    private void stuck(long nanos) {
        failed(new IOException("neither side can move: the peer took nothing this side wrote for "
                + java.time.Duration.ofNanos(nanos).withNanos(0) + ", and this side, whose program is in that send,"
                + " stopped reading the peer with " + inboundBytes.get() + " bytes of its frames unread (counting "
                + FRAME_COST + " a frame): a peer that reads nothing and sends ahead of the protocol, or one gone"
                + " while both sides' socket buffers are full (sessionj.heartbeat.timeout)"));
        writeTimedOut = true; // what is unsent is dropped at the close, not waited for
        channel.close();
    }

    /** The budget for unsent bytes gave this writer up ({@link UnsentBytes}): the connection fails with the reason. */
    private void giveUpWriting(String reason) {
        failed(new IOException(reason));
        writeTimedOut = true; // what is unsent is dropped at the close, not waited for
        channel.close();
        wakeWriter();
    }

    private IOException endedWhileWriting() {
        Throwable cause = failure;
        if (!closed && cause != null) {
            return new IOException("the connection failed while this side was writing: " + cause.getMessage()
                    + " (" + describe() + ")", cause);
        }
        return new IOException((closed ? "connection already closed (" : "connection closed by the peer or broken (")
                + describe() + ")");
    }

    @Override
    public ByteBuf read(long timeoutNanos) throws IOException {
        ByteBuf frame = inbound.take(timeoutNanos);
        if (frame != null) {
            consumed(inboundCharge(frame));
        }
        return frame;
    }

    @Override
    public boolean isReadable() {
        return inbound.isReadable();
    }

    @Override
    public long receivedBytes() {
        return receivedBytes;
    }

    @Override
    public long acceptedNanos() {
        return made;
    }

    @Override
    public boolean frameWaiting() {
        return inboundBytes.get() > 0;
    }

    /** The peer's IP address (Netty keeps the channel's remote address once it is known); null off IP. */
    @Override
    public java.net.InetAddress peerAddress() {
        return channel.remoteAddress() instanceof java.net.InetSocketAddress remote ? remote.getAddress() : null;
    }

    /**
     * What the frames received and not yet read are charged against the inbound mark: what each holds (its bytes, or
     * twice them for a slice of its read buffer) plus {@link #FRAME_COST} each (for tests and monitoring).
     */
    public long inboundCharge() {
        return inboundBytes.get();
    }

    /**
     * What the frames written and not yet handed to the socket's channel are charged against the outbound mark:
     * their capacity plus {@link #FRAME_COST} each (for tests and monitoring).
     */
    public long outboundCharge() {
        return outboundBytes.get();
    }

    /** Whether this connection has stopped reading its socket (its unread frames past its mark or share; for tests and monitoring). */
    public boolean readPaused() {
        return readPausedHint;
    }

    /**
     * What a frame received and not yet read is charged against the inbound mark: what it holds, plus {@link
     * #FRAME_COST}. A frame copied out of its read buffer holds its bytes ({@link FrameDecoder}; the connection's one
     * spare may be larger, up to {@link RecyclableFrame#MAX_RECYCLED}); a slice keeps the buffer it was read into,
     * which is at most twice its bytes (else it was copied), and is charged that. Charged by its bytes alone, a
     * 10-byte slice kept a 64 KiB read buffer: 490 bytes held for each byte charged (hostile18 H10).
     */
    private static int inboundCharge(ByteBuf frame) {
        int bytes = frame.readableBytes();
        return (frame.unwrap() != null ? 2 * bytes : bytes) + FRAME_COST;
    }

    /**
     * Event loop: a heap frame for a received frame of {@code length} bytes that is copied out of its read buffer
     * ({@link FrameDecoder}): the one the reader released last, or a new one; none allocated in steady state.
     */
    ByteBuf inboundFrame(int length) {
        return inboundSpare.take(length);
    }

    /**
     * What a frame written and not yet sent is charged against the outbound mark: the memory it holds (its capacity:
     * a message's frame starts at 256 bytes, so a 9-byte answer charged by its bytes held 2.4 times its charge, and
     * 60 peers that never read their answers held 75 MB of such frames under their marks) plus {@link #FRAME_COST}.
     */
    private static int outboundCharge(ByteBuf frame) {
        return frame.capacity() + FRAME_COST;
    }

    /** A decoder of this connection's frames that counts what comes in ({@link #receivedBytes}). */
    public FrameDecoder frameDecoder() {
        return new FrameDecoder(settings.maxFrameBytes(), this, settings.unfinished());
    }

    /** Kept for the heartbeats' look at each writer-idle interval ({@link Heartbeats}). */
    @Override
    public void ownerWatch(org.sessionj.runtime.spi.OwnerWatch watch) {
        ownerWatch = watch;
    }

    /** The session's watch over this connection, or null. */
    org.sessionj.runtime.spi.OwnerWatch ownerWatch() {
        return ownerWatch;
    }

    @Override
    public void readinessListener(Runnable listener) {
        inbound.wakeListener(listener);
    }

    @Override
    public String transportName() {
        return transportName;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        close(true);
    }

    /**
     * A failed session's close: as {@link #close}, but the closer does not wait for the peer. The last frames (the
     * failure notice) are flushed and the output shut down after them on the event loop, bounded by the linger as
     * ever, so a peer that reads takes them before the end and one that takes nothing holds no program thread:
     * before, a failed session's close waited up to 10 s for a peer that never read.
     */
    @Override
    public void closeFailed() {
        close(false);
    }

    private void close(boolean awaitOutput) {
        if (!CLOSED.compareAndSet(this, false, true)) {
            return;
        }
        inbound.close();
        wakeWriter();
        if (writeTimedOut) {
            // The peer took nothing for the send timeout: what is unsent is dropped, not waited for.
            channel.eventLoop().execute(this::abortChannel);
            return;
        }
        if (!awaitOutput || channel.eventLoop().inEventLoop()) {
            channel.eventLoop().execute(() -> closeChannel(null));
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        channel.eventLoop().execute(() -> closeChannel(done));
        awaitOutputEnded(done);
    }

    /**
     * Waits until the frames written before the close are with the operating system and this end's output is shut
     * down after them, or the socket closed (bounded by the linger), so that a process may exit right after closing:
     * Netty's event loops are daemon threads and would otherwise die with whatever they had not yet written.
     * A {@link CompletableFuture} rather than Netty's {@code await}, which waits in a monitor and
     * would pin a virtual thread on Java 21.
     */
    private void awaitOutputEnded(CompletableFuture<Void> done) {
        try {
            done.get(CLOSE_LINGER_SECONDS + 1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Bounded: the linger closes the socket anyway; nothing more to wait for.
        }
    }

    @Override
    public String toString() {
        return describe();
    }

    private String describe() {
        String d = description;
        if (d == null) {
            d = transportName + " " + channel.localAddress() + " -> " + channel.remoteAddress();
            description = d;
        }
        return d;
    }

    // ---- event loop side ----

    /** {@code bytes} more (fewer: a heartbeat taken back) came in from the peer. */
    void received(int bytes) {
        receivedBytes += bytes; // not atomic, and need not be: the event loop is the only writer
    }

    /**
     * How long this connection has stopped reading the socket so far (its reader behind), up to
     * {@code now} on the event loop's clock: a peer's unfinished frame cannot progress meanwhile.
     */
    long pausedNanos(long now) {
        return pausedBefore + (readPaused ? now - pausedSince : 0);
    }

    /** A heartbeat came in: its header is no progress toward a frame. */
    void heartbeatReceived(int headerBytes) {
        receivedBytes -= headerBytes;
        heartbeatsReceived++; // the event loop is the only writer
    }

    @Override
    public long heartbeatsReceived() {
        return heartbeatsReceived;
    }

    void attach(ChannelHandlerContext context) {
        this.ctx = context;
    }

    void frameReceived(ByteBuf frame) {
        int charge = inboundCharge(frame);
        long queued = inboundBytes.addAndGet(charge);
        UnreadBytes unread = settings.unread();
        unread.changed(queued, charge);
        if (!inbound.add(frame)) {
            uncharge(charge); // closed here: released at once
            return;
        }
        if (!readPaused && (queued > settings.inboundHighBytes()
                || queued > unread.shareBytes() && unread.spent())) {
            readPaused = true;
            pausedSince = channel.eventLoop().ticker().nanoTime();
            pausedAtNanos = System.nanoTime();
            channel.config().setAutoRead(false);
            readPausedHint = true;
            VarHandle.fullFence();
            // A reader may have consumed everything before it could see the hint.
            if (mayResume(inboundBytes.get())) {
                resumeReading();
            } else {
                wakeWriter(); // a writer waiting for room now watches whether either side can move (stuck)
            }
        }
    }

    /** Event loop only: whether reading is paused now (the peer cannot be heard meanwhile). */
    boolean readingPaused() {
        return readPaused;
    }

    /** Event loop only: the heartbeats of this connection's channel, told when reading resumes. */
    void heartbeats(Heartbeats handler) {
        this.heartbeats = handler;
    }

    void failed(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        inbound.fail(cause);
    }

    void ended() {
        inbound.end();
        releaseOutbound();
        wakeWriter();
    }

    void writabilityChanged() {
        wakeWriter();
    }

    private void consumed(int bytes) {
        long queued = uncharge(bytes);
        if (readPausedHint && mayResume(queued) && RESUME_REQUESTED.compareAndSet(this, 0, 1)) {
            channel.eventLoop().execute(resumeTask);
        }
    }

    /** {@code bytes} of charge for frames read or released come back; returns what is charged now. */
    private long uncharge(int bytes) {
        long queued = inboundBytes.addAndGet(-bytes);
        settings.unread().changed(queued, -bytes);
        return queued;
    }

    /**
     * Whether a connection charged {@code queued} for its unread frames may read its socket again: under its low mark,
     * and within its share unless the process's budget for unread frames has room.
     */
    private boolean mayResume(long queued) {
        return queued <= settings.inboundLowBytes()
                && (queued <= settings.unread().shareBytes() || !settings.unread().spent());
    }

    private void resumeReading() {
        RESUME_REQUESTED.setVolatile(this, 0);
        if (readPaused && mayResume(inboundBytes.get())) {
            readPaused = false;
            pausedBefore += channel.eventLoop().ticker().nanoTime() - pausedSince;
            readPausedHint = false;
            if (heartbeats != null) {
                heartbeats.resetReadTimeout(); // the peer could not be heard while paused: its silence counts from now
            }
            channel.config().setAutoRead(true);
        }
    }

    private void drainOutbound() {
        FLUSH_SCHEDULED.setVolatile(this, 0);
        if (ctx == null || !channel.isActive()) {
            releaseOutbound();
            wakeWriter();
            return;
        }
        ByteBuf batch = null;
        long moved = 0;
        ByteBuf frame;
        while ((frame = outbound.relaxedPoll()) != null) {
            int length = frame.readableBytes();
            moved += outboundCharge(frame);
            int needed = FrameDecoder.HEADER_BYTES + (length <= SMALL_FRAME ? length : 0);
            if (batch != null && batch.writableBytes() < needed) {
                ctx.write(batch, ctx.voidPromise());
                batch = null;
            }
            if (batch == null) {
                int size = (int) Math.min(BATCH_BYTES, Math.max(needed, 2 * (outboundBytes.get() - moved) + 64));
                batch = ctx.alloc().directBuffer(size, size);
            }
            batch.writeInt(length);
            if (length <= SMALL_FRAME) {
                batch.writeBytes(frame, frame.readerIndex(), length);
                frame.release();
            } else {
                ctx.write(batch, ctx.voidPromise());
                batch = null;
                ctx.write(frame, ctx.voidPromise());
            }
        }
        if (batch != null) {
            ctx.write(batch, ctx.voidPromise());
        }
        ctx.flush();
        outboundBytes.addAndGet(-moved);
        wakeWriter();
    }

    /** Closes the channel without sending what is queued (the channel's close releases what it still holds). */
    private void abortChannel() {
        releaseOutbound();
        channel.close();
    }

    /**
     * Event loop: ends the channel after what was written. The last frames are flushed, then the output is shut down
     * after them (over TLS after close_notify), and the channel reads on, dropping what comes, until the peer's end
     * (at most {@link #CLOSE_LINGER_SECONDS}) before it closes. Closing the socket at once left it to the kernel to
     * answer whatever the peer sent meanwhile (a heartbeat, TLS's answering close_notify, a frame sent before the peer
     * saw the end) with an RST, which threw away what this side's kernel had not sent yet and failed the peer's read
     * with "Connection reset by peer": a tls reader once got 39 of 40 frames of a burst closed at once.
     * {@code done} (or null) completes once the output is shut down or the channel closed.
     */
    private void closeChannel(CompletableFuture<Void> done) {
        drainOutbound();
        if (done != null) {
            channel.closeFuture().addListener(f -> done.complete(null));
        }
        if (!channel.isActive() || !(channel instanceof DuplexChannel duplex)) {
            channel.close();
            return;
        }
        ScheduledFuture<?> linger = channel.eventLoop().schedule(() -> {
            channel.close(); // a peer that never reads, or never ends, does not keep the socket open for ever
        }, CLOSE_LINGER_SECONDS, TimeUnit.SECONDS);
        channel.closeFuture().addListener(f -> linger.cancel(false));
        if (readPaused) { // read to the peer's end: nothing left unread in the socket when it closes
            readPaused = false;
            pausedBefore += channel.eventLoop().ticker().nanoTime() - pausedSince;
            readPausedHint = false;
            channel.config().setAutoRead(true);
        }
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed -> {
            if (!flushed.isSuccess() || !channel.isActive()) {
                channel.close();
                return;
            }
            SslHandler tls = channel.pipeline().get(SslHandler.class);
            if (tls == null) {
                shutdownOutput(duplex, done);
            } else {
                tls.closeOutbound().addListener(notified -> {
                    if (notified.isSuccess()) {
                        shutdownOutput(duplex, done);
                    } else {
                        channel.close();
                    }
                });
            }
        });
    }

    /** Event loop: the FIN after the last byte; the channel closes when the peer's end is read (or the linger). */
    private void shutdownOutput(DuplexChannel duplex, CompletableFuture<Void> done) {
        duplex.shutdownOutput().addListener(shut -> {
            if (!shut.isSuccess()) {
                channel.close();
            } else if (done != null) {
                done.complete(null);
            }
        });
    }

    private void releaseOutbound() {
        ByteBuf frame;
        long released = 0;
        while ((frame = outbound.relaxedPoll()) != null) {
            released += outboundCharge(frame);
            frame.release();
        }
        outboundBytes.addAndGet(-released);
    }

    private void wakeWriter() {
        Thread w = blockedWriter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }
}
