package org.sessionj.transport.netty.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.sessionj.runtime.spi.OwnerWatch;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.runtime.spi.support.OwnerLook;

/**
 * What the runtime does for a blocking TCP connection ({@link BlockingConnection}) that the
 * session's own thread cannot: writing heartbeats when nothing was written for the interval (the
 * session's thread may be computing, or blocked in another session: the runtime answers for the
 * process, as the event loop does on the other path), and ending by closing the socket under it
 * <ul>
 *   <li>a write that has waited longer than the send timeout for the peer to read;
 *   <li>a write that has waited for the heartbeat timeout while nothing at all came from the peer
 *       in that time, not even a heartbeat (the peer's process is frozen or gone: a live SJ peer's
 *       runtime sends heartbeats while its program does not read, so this needs no send timeout);
 *   <li>an untimed read that has heard nothing for the heartbeat timeout.
 * </ul>
 * One virtual thread per connection, parked between its duties.
 *
 * <p>The keeper never writes on its own thread: a heartbeat goes out on a {@link PlatformWriters
 * platform writer}, or on a short-lived virtual thread when none is free, because a blocking write into
 * full socket buffers (a peer that stopped reading) would hold the keeper, and a held keeper watches
 * nothing. Not on a virtual thread first: its write would switch the socket to non-blocking mode for
 * good, and every read of an idle session's platform thread would cost two system calls more from its
 * first heartbeat on. While that heartbeat waits it counts as a write under way, so a frozen peer ends it
 * as it ends any write.
 *
 * <p>What the peer sent is counted without reading it (bytes read so far, {@link #received}, plus
 * bytes waiting in the socket, {@link Kept#unread}), so a writer whose session reads nothing meanwhile still learns
 * whether its peer lives.
 *
 * <p>The session's thread tells it when a write or an untimed read starts and ends ({@link #writing},
 * {@link #wrote}, {@link #reading}, {@link #readDone}): an opaque load and store each, and a clock read
 * for a write only (an untimed read is timed from the keeper's own looks), on a path that makes a system
 * call anyway. So an untimed read is one blocking {@code read}
 * system call: a read with a socket timeout costs five more (the JDK switches the socket to
 * non-blocking and back around a {@code poll} for every timed read).
 */
final class BlockingKeeper implements Runnable {
    private static final VarHandle WRITE_STARTED;
    private static final VarHandle LAST_WRITTEN;
    private static final VarHandle READS;
    private static final VarHandle RECEIVED;
    /** The shortest pause between two looks at a write under a send timeout. */
    private static final long MIN_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Looks per heartbeat timeout while a write waits (each asks the socket how much came in). */
    private static final long WRITE_LOOKS = 8;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WRITE_STARTED = lookup.findVarHandle(BlockingKeeper.class, "writeStarted", long.class);
            LAST_WRITTEN = lookup.findVarHandle(BlockingKeeper.class, "lastWritten", long.class);
            READS = lookup.findVarHandle(BlockingKeeper.class, "reads", long.class);
            RECEIVED = lookup.findVarHandle(BlockingKeeper.class, "received", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What the keeper needs of its connection. */
    interface Kept {
        /**
         * Writes a heartbeat unless a write is under way, telling the keeper of it as of any write
         * ({@link #writing}, {@link #wrote}); false if none was written. May block (the peer does not
         * read): the keeper calls it on another thread.
         */
        boolean writeHeartbeat();

        /** How many bytes from the peer wait unread in the socket (negative if the socket is closed). */
        int unread();

        /** Closes the socket under a write that waited too long, or a read that heard nothing for too long; it fails at once. */
        void abort();

        boolean isClosed();
    }

    private final Kept connection;
    private final long intervalNanos;
    /** How long an untimed read may hear nothing (0: heartbeats off, no limit). */
    private final long silenceNanos;
    /**
     * Untimed reads started and ended, counted by the reading thread (one at a time): odd while one is under
     * way. A count, not a time: a read reads no clock ({@link #reading}).
     */
    @SuppressWarnings("unused") // through READS
    private long reads;
    /** The count of the read under way that the keeper last saw (keeper thread only). */
    private long readSeen;
    /**
     * Where the keeper counts that read's silence from (keeper thread only): its previous look before it
     * first saw the read, which the read started after.
     */
    private long readSince;
    /** When the keeper last looked (keeper thread only; at first its start). */
    private long lastLook;
    private volatile boolean silent;
    /** Bytes read from the socket so far (by whichever thread reads it: one at a time). */
    @SuppressWarnings("unused") // through RECEIVED
    private long received;
    private volatile long sendTimeoutNanos = -1;
    /** When the write under way started ({@code System.nanoTime()}), or 0. */
    @SuppressWarnings("unused") // through WRITE_STARTED
    private long writeStarted;
    /** When something (a frame or a heartbeat) was last written. */
    @SuppressWarnings("unused") // through LAST_WRITTEN
    private long lastWritten;
    private volatile boolean timedOut;
    /** Set when the keeper closed the socket under a write to a peer that sent nothing for the heartbeat timeout. */
    private volatile boolean frozen;
    /** Whether a heartbeat is being written on its own thread (then no other is started). */
    private volatile boolean heartbeating;
    /**
     * The most the peer was heard to have sent (read plus waiting in the socket) at the keeper's last
     * look, and when that last grew (keeper thread only). Volatile for {@link #heard}.
     */
    private volatile long heardBytes;
    private long heardAt;
    private volatile Thread thread;
    private final LongSupplier clock;
    /** Whether the keeper looks on a thread of its own (false: a test calls {@link #look}). */
    private final boolean ownThread;
    private final Executor heartbeatStarter;
    /** The session's watch over the connection, asked at each heartbeat due whether its thread ended (adv18 A13). */
    private volatile OwnerWatch ownerWatch;
    /** The session's thread as the last look saw it ended, or null (keeper thread only). */
    private Thread ownerSeenEnded;

    /** A keeper of {@code connection}, with {@code heartbeat}'s interval ({@link Heartbeat#OFF}: no heartbeats). */
    BlockingKeeper(Kept connection, Heartbeat heartbeat) {
        this(connection, heartbeat, System::nanoTime, BlockingKeeper::startWriter, true);
    }

    /**
     * A keeper with no thread of its own, that reads the time from {@code clock} and starts each
     * heartbeat write with {@code heartbeatStarter}: a test drives it through {@link #look} with a clock
     * of its own, so that what it asserts does not depend on how promptly a loaded machine schedules a
     * thread.
     */
    BlockingKeeper(Kept connection, Heartbeat heartbeat, LongSupplier clock, Executor heartbeatStarter) {
        this(connection, heartbeat, clock, heartbeatStarter, false);
    }

    private BlockingKeeper(Kept connection, Heartbeat heartbeat, LongSupplier clock, Executor heartbeatStarter,
            boolean ownThread) {
        this.ownThread = ownThread;
        this.connection = connection;
        this.intervalNanos = heartbeat.enabled() ? heartbeat.intervalNanos() : 0;
        this.silenceNanos = heartbeat.enabled() ? heartbeat.timeoutNanos() : 0;
        this.clock = clock;
        this.heartbeatStarter = heartbeatStarter;
        long now = clock.getAsLong();
        LAST_WRITTEN.setOpaque(this, now);
        heardAt = now;
        lastLook = now;
    }

    /** Starts a heartbeat's write on a platform writer, or on a virtual thread of its own if both are busy. */
    private static void startWriter(Runnable heartbeat) {
        if (!PlatformWriters.tryExecute(heartbeat)) {
            Thread.ofVirtual().name("sj-tcp-heartbeat").start(heartbeat);
        }
    }

    /** Starts the keeper's thread if it has a duty and none runs. */
    synchronized void startIfNeeded() {
        if (ownThread && thread == null && (intervalNanos > 0 || sendTimeoutNanos >= 0) && !connection.isClosed()) {
            thread = Thread.ofVirtual().name("sj-tcp-keeper").start(this);
        }
    }

    /** Whether the keeper's thread has been started. */
    boolean started() {
        return thread != null;
    }

    /** Sets the send timeout (negative: none) and starts the keeper if that gives it a duty. */
    void sendTimeout(long timeoutNanos) {
        this.sendTimeoutNanos = timeoutNanos;
        startIfNeeded();
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t); // look at once with the new timeout
        }
    }

    long sendTimeoutNanos() {
        return sendTimeoutNanos;
    }

    /** Sets the session's watch, looked at once per heartbeat interval while nothing is written ({@link OwnerLook}). */
    void ownerWatch(OwnerWatch watch) {
        ownerWatch = watch;
    }

    /** Session thread: a write to the socket starts. */
    void writing() {
        WRITE_STARTED.setOpaque(this, clock.getAsLong());
    }

    /**
     * Session thread (or the heartbeat's thread): the write ended. It counts as written when it started
     * or last made progress ({@link #writing} again), which saves a clock read on the path of every flush
     * (a round trip over loopback is a few microseconds, each read of the clock ~20 ns); a write that
     * waited a whole interval for the peer may then be followed by a heartbeat a little early.
     */
    void wrote() {
        long started = (long) WRITE_STARTED.getOpaque(this);
        WRITE_STARTED.setOpaque(this, 0L);
        LAST_WRITTEN.setOpaque(this, started != 0 ? started : clock.getAsLong());
    }

    /** Whether the keeper watches untimed reads (heartbeats are on and its thread runs): they may then block without a timeout. */
    boolean watchesReads() {
        return silenceNanos > 0 && thread != null;
    }

    /**
     * Session thread: an untimed read starts (the keeper ends it if it hears nothing for the heartbeat
     * timeout). No clock is read: the keeper times the read from its own last look before it saw the read
     * (the read started after that look), and ends it only once nothing at all was heard from the peer for
     * the timeout since then ({@link #look}). So a read that waits is ended between the timeout less one
     * interval and the timeout after it started, always with the peer silent for the whole timeout; a clock
     * read here cost ~20–35 ns on every message of a request/response loop (docs/benchmarks.md,
     * "Twenty-second session").
     */
    void reading() {
        READS.setOpaque(this, (long) READS.getOpaque(this) + 1);
    }

    /** Reading thread: {@code bytes} more were read from the socket. */
    void received(int bytes) {
        RECEIVED.setOpaque(this, (long) RECEIVED.getOpaque(this) + bytes);
    }

    /**
     * What the peer had sent at the keeper's last look (bytes read plus bytes waiting in the socket),
     * without asking the socket now: at most a look old (a heartbeat interval while nothing waits).
     */
    long heard() {
        return heardBytes;
    }

    /** Bytes read from the socket so far. */
    long receivedCount() {
        return (long) RECEIVED.getOpaque(this);
    }

    /** Session thread: the untimed read returned. */
    void readDone() {
        READS.setOpaque(this, (long) READS.getOpaque(this) + 1);
    }

    /** Whether the keeper closed the socket under a read that heard nothing for the heartbeat timeout. */
    boolean silent() {
        return silent;
    }

    /** Whether the keeper closed the socket under a write to a peer that sent nothing for the heartbeat timeout. */
    boolean frozen() {
        return frozen;
    }

    /** How long the peer may stay silent under a blocked write or an untimed read (0: no limit). */
    long silenceNanos() {
        return silenceNanos;
    }

    /** Whether the keeper closed the socket under a write that waited past the send timeout. */
    boolean timedOut() {
        return timedOut;
    }

    /** The connection closed: the keeper's thread ends. */
    void stop() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        lastLook = clock.getAsLong(); // a read that started before the thread did is timed from here: later, never early
        for (long pause = look(clock.getAsLong()); pause >= 0; pause = look(clock.getAsLong())) {
            LockSupport.parkNanos(this, pause);
        }
    }

    /**
     * One look at the connection at time {@code now}: ends what waited too long, starts a heartbeat
     * when one is due.
     *
     * @return how long to park until the next look, or -1 when the keeper is done (the connection
     *     is closed, or the keeper closed it)
     */
    long look(long now) {
        if (connection.isClosed()) {
            return -1;
        }
        long started = (long) WRITE_STARTED.getOpaque(this);
        long timeout = sendTimeoutNanos;
        if (started != 0 && timeout >= 0 && now - started >= timeout) {
            timedOut = true;
            connection.abort();
            return -1;
        }
        if (silenceNanos > 0) {
            // Read the count before asking the socket: a read between the two then makes the sum
            // look smaller, never larger, so it cannot pass for the peer's voice.
            long read = (long) RECEIVED.getOpaque(this);
            int unread = connection.unread();
            long heard = read + unread;
            if (unread >= 0 && heard > heardBytes) {
                heardBytes = heard;
                heardAt = now;
            }
            if (started != 0 && now - started >= silenceNanos && now - heardAt >= silenceNanos) {
                frozen = true;
                connection.abort();
                return -1;
            }
        }
        long readCount = (long) READS.getOpaque(this);
        boolean reading = (readCount & 1) != 0 && silenceNanos > 0;
        long lookedBefore = lastLook;
        lastLook = now;
        long quiet = 0; // how long the read under way has heard nothing, as far as the keeper can tell
        if (reading) {
            if (readCount != readSeen) {
                // A read the keeper had not seen: it started after the previous look.
                readSeen = readCount;
                readSince = lookedBefore;
            }
            // Silent since the later of the two: nothing heard since heardAt (bytes read plus bytes waiting
            // did not grow from one look to the next), and the read began after readSince.
            quiet = now - Math.max(readSince, heardAt);
            if (quiet >= silenceNanos) {
                silent = true;
                connection.abort();
                return -1;
            }
        }
        long pause = Long.MAX_VALUE;
        if (intervalNanos > 0) {
            long idle = now - (long) LAST_WRITTEN.getOpaque(this);
            if (idle < intervalNanos) {
                pause = intervalNanos - Math.max(0, idle);
            } else {
                // Due. Under a write (or a heartbeat) under way none is started: that write counts as
                // one once it ends. Either way the next is due an interval on, never at once: a keeper
                // that looked again at once would spin for as long as a write waits.
                if (started == 0 && !heartbeating) {
                    startHeartbeat();
                }
                // Nothing written for an interval: has the session's thread ended with it open (adv18 A13)?
                ownerSeenEnded = OwnerLook.look(ownerWatch, ownerSeenEnded);
                pause = intervalNanos;
            }
        }
        if (timeout >= 0) {
            pause = Math.min(pause, Math.max(MIN_LOOK_NANOS, timeout / 4));
        }
        if (reading) {
            // A read that starts while the keeper sleeps is seen at the latest one interval late, and timed
            // from the look before.
            pause = Math.min(pause, Math.max(MIN_LOOK_NANOS, silenceNanos - quiet));
        }
        if (started != 0 && silenceNanos > 0) {
            // Under a waiting write, look often enough to hear the peer's heartbeats come in.
            pause = Math.min(pause, Math.max(MIN_LOOK_NANOS, silenceNanos / WRITE_LOOKS));
        }
        return pause;
    }

    /**
     * Writes one heartbeat on another thread (a platform writer, or a virtual thread of its own): the
     * write may block (the peer's buffers are full) and must not hold the keeper.
     */
    private void startHeartbeat() {
        heartbeating = true;
        try {
            heartbeatStarter.execute(this::heartbeat);
        } catch (RuntimeException | OutOfMemoryError e) {
            heartbeating = false; // no thread now: the next interval tries again
        }
    }

    private void heartbeat() {
        try {
            connection.writeHeartbeat();
        } finally {
            heartbeating = false;
        }
    }
}
