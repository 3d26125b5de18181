package org.sessionj.transport.shm;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.WriteTimeoutException;
import org.sessionj.runtime.spi.support.HandoffQueue;
import org.sessionj.runtime.spi.support.HeapFrame;
import org.sessionj.runtime.spi.support.SpinThenPark;

/**
 * One direction of an in-JVM connection: frames and passed references, in one order, from the
 * writing end to the reading end. The queue is created on the first write, so an idle connection
 * costs no queue memory.
 *
 * <p><b>Bounded.</b> The bytes of frames written and not yet read are at most about
 * {@code sessionj.shm.backlogBytes}: past it the writer waits for the reader, up to its send
 * timeout, as over TCP (a passed reference counts {@link #REFERENCE_BYTES}). The writer counts what it
 * sent, the reader what it took; the writer reads the reader's count only when its own count passes
 * the room it last saw, so a session far under the bound pays a plain add per frame on each side. The
 * counts share the pipe's cache line with {@link #spare}, which both sides write for every frame
 * anyway: no padding, no extra line to move.
 *
 * <p><b>Unguarded.</b> Every element is a {@link HeapFrame} or a passed reference, which the garbage
 * collector takes if it is never read, so a close from another thread (a session failed by its scope)
 * leaves the queue as it is, and the reader's operations cost no atomic instruction
 * ({@link HandoffQueue#HandoffQueue(SpinThenPark, boolean)}). One reader at a time is the session's
 * rule (its action guard); a readiness check from another thread only looks
 * ({@link HandoffQueue#hasQueued}).
 *
 * <p><b>Watched.</b> While a reader is parked, the JVM's {@link OrphanWatch} looks at the writing
 * end's thread ({@link OrphanCheck}); a writer waiting for room looks at the reading end's itself. An end
 * whose thread ended without closing it fails the wait within {@code sessionj.shm.orphanTimeout}.
 */
final class Pipe extends HandoffQueue<Object> implements HeapFrame.Home {
    /**
     * How a reader waits: {@code sessionj.shm.spins} polls (none on one CPU), then
     * {@code sessionj.shm.yields} yields, then it parks; a wake-up across cores costs tens of microseconds.
     */
    static final SpinThenPark IDLE = SpinThenPark.fromSetting("shm.spins", SpinThenPark.defaultSpins())
            .withYieldsFromSetting("shm.yields", 20);
    /** What a passed reference counts against the backlog bound (a queue slot and its wrapper). */
    static final int REFERENCE_BYTES = 16;
    /** The longest a writer waiting for room parks before it looks again (a missed wake-up costs at most this). */
    private static final long ROOM_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final VarHandle SPARE;
    private static final VarHandle CONSUMED;
    private static final VarHandle BLOCKED_WRITER;
    private static final VarHandle LISTED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SPARE = lookup.findVarHandle(Pipe.class, "spare", HeapFrame.class);
            CONSUMED = lookup.findVarHandle(Pipe.class, "consumed", long.class);
            BLOCKED_WRITER = lookup.findVarHandle(Pipe.class, "blockedWriter", Thread.class);
            LISTED = lookup.findVarHandle(Pipe.class, "listed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A frame the reader released, for the writer's next one. One slot is enough in a round trip:
     * the reader releases frame n as it starts reading frame n+1, before it answers, so the writer
     * finds it there when it writes frame n+2.
     */
    @SuppressWarnings("unused") // through SPARE
    private volatile HeapFrame spare;

    /** The bounds (one shared object: a pipe per direction of a million idle sessions each saves 12 bytes). */
    private final ShmSettings settings;
    /** Reader only (written), writer (read when its room runs out): bytes taken so far. */
    @SuppressWarnings("unused") // through CONSUMED
    private long consumed;
    /** The writer while it waits for room, or null. */
    @SuppressWarnings("unused") // through BLOCKED_WRITER
    private Thread blockedWriter;
    /** Writer only: bytes sent so far. */
    private long sent;
    /** Writer only: {@link #sent} may grow to this before the reader's count is read again. */
    private long room;
    /** The ends: the one that writes into this pipe and the one that reads from it (set once, by {@link ShmConnection#pair}). */
    private ShmConnection writerEnd;
    private ShmConnection readerEnd;
    /**
     * The check of the writer's thread ({@link OrphanWatch}'s thread only), made when a look finds that
     * thread ended and dropped when a later look finds the end taken again: null while the writer lives.
     */
    private OrphanCheck writerCheck;
    /** Why the writing end is taken for gone, once the watch found it orphaned; read by the parked reader. */
    private volatile String orphaned;
    /**
     * Whether the watch looked at this pipe since its reader last parked: set by the watch, cleared by
     * the reader as it parks (plain: a late view costs at most one tick more before the spares go).
     */
    private boolean lookedAt;
    /** Whether this pipe is on {@link OrphanWatch}'s lists (changed by compare-and-set; see there). */
    @SuppressWarnings("unused") // through LISTED
    private volatile boolean listed;
    /** The next pipe on the {@link OrphanWatch} list this pipe is on (its owner: see there). */
    Pipe nextWatched;

    Pipe(ShmSettings settings) {
        // Nothing queued needs a release (heap frames and passed references; ShmConnection copies a
        // Netty buffer into a heap frame as it is written): no consumer guard, no drain on close.
        super(IDLE, false);
        this.settings = settings;
        this.room = settings.backlogBytes();
    }

    /** Puts this pipe on the watch's lists unless it is on them already; true if the caller is to link it. */
    boolean list() {
        return LISTED.compareAndSet(this, false, true);
    }

    /** The watch takes this pipe off its list (it then looks whether the reader parked meanwhile). */
    void unlist() {
        listed = false;
    }

    /** Whether the reader is parked in a watched wait (any thread). */
    boolean readerParked() {
        return isConsumerParked();
    }

    /** Sets the ends, once, before any use. */
    void ends(ShmConnection writer, ShmConnection reader) {
        this.writerEnd = writer;
        this.readerEnd = reader;
    }

    /** Producer: a frame to write into, the released one if any (else a new one of {@code capacity}). */
    HeapFrame frame(int capacity) {
        // Only the writer empties the slot and only givers fill it, so a load and a store do: no atomic
        // instruction on the path of every message. A giver that fills the slot between the two loses
        // its frame to the collector, never to a second user (see giveBack).
        HeapFrame f = (HeapFrame) SPARE.getAcquire(this);
        if (f == null) {
            return new HeapFrame(this, capacity);
        }
        SPARE.setOpaque(this, (HeapFrame) null);
        return f.reuse();
    }

    /**
     * Any thread: keeps {@code released} for the writer's next frame; false if a spare is kept
     * already or this direction is closed (the caller frees it).
     */
    @Override
    public boolean giveBack(HeapFrame released) {
        // A giver fills the slot only when it finds it empty, with a release store that publishes the
        // reader's last use of the frame to the writer's acquire load. Two givers at once (the reader
        // and a thread draining a closed pipe) may both find it empty: one frame is then kept and the
        // other left to the collector. A frame is in the slot at most once, because it is released once.
        if (isClosed() || SPARE.getAcquire(this) != null) {
            return false;
        }
        SPARE.setRelease(this, released);
        return true;
    }

    /**
     * Producer: hands {@code frame} to the reading end, first waiting for room if the backlog is at
     * its bound; the caller keeps the frame if this fails.
     *
     * @param sendTimeoutNanos how long to wait for room; negative: as long as the connection lives
     * @throws WriteTimeoutException if the reader took nothing for that long
     */
    void send(Frame frame, long sendTimeoutNanos) throws IOException {
        admit(frame.readableBytes(), sendTimeoutNanos);
        taken(offer(frame));
    }

    /**
     * Producer: as {@link #send}, for a passed reference, without waking the reader (the frame
     * announcing the reference follows).
     */
    void sendQuietly(Object reference, long sendTimeoutNanos) throws IOException {
        admit(REFERENCE_BYTES, sendTimeoutNanos);
        taken(offerWithoutWaking(reference));
    }

    /**
     * Consumer: a frame of {@code bytes} (or a reference) was taken off the queue; wakes a writer
     * waiting for room. A release store and an opaque load, no fence: a writer that registers just as
     * the reader looks may be missed, so a blocked writer parks in short slices and looks again itself.
     */
    void consumed(int bytes) {
        CONSUMED.setRelease(this, (long) CONSUMED.get(this) + bytes);
        Thread writer = (Thread) BLOCKED_WRITER.getOpaque(this);
        if (writer != null) {
            LockSupport.unpark(writer);
        }
    }

    /** Writer: the bytes the reader took so far. */
    private long consumedByReader() {
        return (long) CONSUMED.getAcquire(this);
    }

    private void admit(int bytes, long sendTimeoutNanos) throws IOException {
        long s = sent;
        if (s >= room) {
            awaitRoom(sendTimeoutNanos);
        }
        sent = s + bytes;
    }

    /** Waits until fewer than the bound's bytes are unread, the connection ends, or the send timeout passes. */
    private void awaitRoom(long timeoutNanos) throws IOException {
        long backlogBytes = settings.backlogBytes();
        long watchNanos = settings.watchNanos();
        room = consumedByReader() + backlogBytes;
        if (sent < room) {
            return;
        }
        long start = System.nanoTime();
        long nextWatch = start + watchNanos;
        OrphanCheck readerCheck = new OrphanCheck(watchNanos);
        BLOCKED_WRITER.setVolatile(this, Thread.currentThread());
        try {
            while (true) {
                room = consumedByReader() + backlogBytes;
                if (sent < room) {
                    return;
                }
                if (isClosed() || isEnded()) {
                    taken(false);
                }
                long now = System.nanoTime();
                if (watchNanos > 0 && now - nextWatch >= 0) {
                    readerCheck.check(readerEnd, "for room to write");
                    nextWatch = now + watchNanos;
                }
                long wait = ROOM_SLICE_NANOS;
                if (timeoutNanos >= 0) {
                    long left = start + timeoutNanos - now;
                    if (left <= 0) {
                        throw new WriteTimeoutException("the in-JVM peer took nothing for " + Duration.ofNanos(timeoutNanos)
                                + " with " + (sent - consumedByReader()) + " bytes unread (sessionj.shm.backlogBytes "
                                + backlogBytes + ")");
                    }
                    wait = Math.min(wait, left);
                }
                LockSupport.parkNanos(this, wait);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for room on an in-JVM connection");
                }
            }
        } finally {
            BLOCKED_WRITER.setVolatile(this, (Thread) null);
        }
    }

    /** Bytes written and not yet read (for tests). */
    long unreadBytes() {
        return sent - consumedByReader();
    }

    /** The reader is about to park: the orphan watch looks at the writer while it waits. */
    @Override
    protected void parking() {
        lookedAt = false;
        long watchNanos = settings.watchNanos();
        if (watchNanos > 0) {
            OrphanWatch.INSTANCE.register(this, watchNanos);
        }
    }

    /** The reader woke without a frame: fails the wait if the watch found the writer's end orphaned. */
    @Override
    protected void woke() throws IOException {
        String reason = orphaned;
        if (reason != null) {
            throw new IOException(reason);
        }
    }

    /**
     * Any thread: lets go of the spare frame, so that a connection nobody reads for a while does not
     * keep one (~350 bytes) per direction; the writer's next frame is then a new one.
     */
    void dropSpare() {
        SPARE.getAndSet(this, (HeapFrame) null);
    }

    /** Whether a released frame is kept for the writer (for tests). */
    boolean hasSpare() {
        return spare != null;
    }

    /**
     * The orphan watch's thread, while the reader is parked: wakes the reader if the writer's end was
     * orphaned; at the second look of one wait (the reader has been parked at least a tick, half the
     * orphan timeout), drops both directions' spare frames.
     */
    void lookAtWriter() {
        if (lookedAt) {
            dropSpare();
            ShmConnection reader = readerEnd;
            if (reader != null) {
                reader.dropSpare();
            }
        }
        lookedAt = true;
        ShmConnection writer = writerEnd;
        if (writer == null || orphaned != null) {
            return;
        }
        OrphanCheck check = writerCheck;
        if (check == null) {
            if (!OrphanCheck.ownerEnded(writer)) {
                return;
            }
            check = new OrphanCheck(settings.watchNanos());
            writerCheck = check;
        }
        try {
            check.check(writer, "to read");
            if (!check.timing()) {
                writerCheck = null;
            }
        } catch (IOException e) {
            orphaned = e.getMessage();
            wakeConsumer();
        }
    }

    private void taken(boolean taken) throws IOException {
        if (!taken) {
            throw new IOException(isClosed() ? "in-JVM connection closed by the peer" : "in-JVM connection already closed");
        }
    }

    @Override
    protected void release(Object element) {
        // Never called: the queue is made with needsRelease false (nothing queued holds more than heap memory).
        if (element instanceof Frame frame) {
            frame.release();
        }
    }

    @Override
    protected IOException closedException() {
        return new IOException("in-JVM connection closed");
    }

    @Override
    protected IOException endedException() {
        return new IOException("in-JVM connection closed by the peer");
    }

    @Override
    protected InterruptedIOException interruptedException() {
        return new InterruptedIOException("interrupted while waiting on an in-JVM connection");
    }
}
