package org.sessionj.transport.netty.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.runtime.spi.support.Heartbeat;

/**
 * What the runtime does for a blocking TCP connection ({@link BlockingConnection}) that the
 * session's own thread cannot: writing heartbeats when nothing was written for the interval (the
 * session's thread may be computing, or blocked in another session: the runtime answers for the
 * process, as the event loop does on the other path), and ending a write that has waited longer than
 * the send timeout for the peer to read, by closing the socket under it. One virtual thread per
 * connection, parked between the two duties.
 *
 * <p>The session's thread tells it when a write starts and ends ({@link #writing}, {@link #wrote}):
 * a {@code System.nanoTime()} and an opaque store each, on a path that makes a system call anyway.
 */
final class BlockingKeeper implements Runnable {
    private static final VarHandle WRITE_STARTED;
    private static final VarHandle LAST_WRITTEN;
    /** The shortest pause between two looks at a write under a send timeout. */
    private static final long MIN_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WRITE_STARTED = lookup.findVarHandle(BlockingKeeper.class, "writeStarted", long.class);
            LAST_WRITTEN = lookup.findVarHandle(BlockingKeeper.class, "lastWritten", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What the keeper needs of its connection. */
    interface Kept {
        /** Writes a heartbeat unless a write is under way; false if none was written. May block (the peer does not read). */
        boolean writeHeartbeat();

        /** Closes the socket under a write that waited too long; the write fails at once. */
        void abortWrite();

        boolean isClosed();
    }

    private final Kept connection;
    private final long intervalNanos;
    private volatile long sendTimeoutNanos = -1;
    /** When the write under way started ({@code System.nanoTime()}), or 0. */
    @SuppressWarnings("unused") // through WRITE_STARTED
    private long writeStarted;
    /** When something (a frame or a heartbeat) was last written. */
    @SuppressWarnings("unused") // through LAST_WRITTEN
    private long lastWritten;
    private volatile boolean timedOut;
    private volatile Thread thread;

    /** A keeper of {@code connection}, with {@code heartbeat}'s interval ({@link Heartbeat#OFF}: no heartbeats). */
    BlockingKeeper(Kept connection, Heartbeat heartbeat) {
        this.connection = connection;
        this.intervalNanos = heartbeat.enabled() ? heartbeat.intervalNanos() : 0;
        LAST_WRITTEN.setOpaque(this, System.nanoTime());
    }

    /** Starts the keeper's thread if it has a duty and none runs. */
    synchronized void startIfNeeded() {
        if (thread == null && (intervalNanos > 0 || sendTimeoutNanos >= 0) && !connection.isClosed()) {
            thread = Thread.ofVirtual().name("sj-tcp-keeper").start(this);
        }
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

    /** Session thread: a write to the socket starts. */
    void writing() {
        WRITE_STARTED.setOpaque(this, System.nanoTime());
    }

    /** Session thread (or the keeper, after a heartbeat): the write ended. */
    void wrote() {
        WRITE_STARTED.setOpaque(this, 0L);
        LAST_WRITTEN.setOpaque(this, System.nanoTime());
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
        while (!connection.isClosed()) {
            long now = System.nanoTime();
            long started = (long) WRITE_STARTED.getOpaque(this);
            long timeout = sendTimeoutNanos;
            if (started != 0 && timeout >= 0 && now - started >= timeout) {
                timedOut = true;
                connection.abortWrite();
                return;
            }
            long pause = Long.MAX_VALUE;
            if (intervalNanos > 0) {
                long idle = now - (long) LAST_WRITTEN.getOpaque(this);
                if (idle >= intervalNanos && started == 0) {
                    if (connection.writeHeartbeat()) {
                        wrote();
                    }
                    idle = 0;
                }
                pause = intervalNanos - Math.max(0, idle);
            }
            if (timeout >= 0) {
                pause = Math.min(pause, Math.max(MIN_LOOK_NANOS, timeout / 4));
            }
            LockSupport.parkNanos(this, pause);
        }
    }
}
