package org.sessionj.runtime.internal.session;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The sessions a server socket agreed and {@code accept()} has not taken yet, bounded in number and in age.
 *
 * <p>A requester's {@code request()} returns once its session is agreed, before the server's program takes
 * it; a requester of a server whose accept loop stopped (or never looped) then waited in its first receive
 * for ever (adv15 A26). Now:
 * <ul>
 *   <li>at most {@code sessionj.acceptQueue} sessions wait. While that many do, a newly agreed session waits
 *       for room as long as the program is taking sessions (a burst of requesters is slowed, not refused), and
 *       is refused with a reason ({@link #refusal}) once the oldest queued session has waited
 *       {@link #stuckNanos}: the program has stopped taking sessions, and telling the requester at once beats
 *       queueing it behind sessions that will fail at their timeout;
 *   <li>a session that waited longer than {@code sessionj.acceptTimeout} is failed: its requester is told
 *       "the server did not accept the session within …" (a failure notice, then the connection closes),
 *       and the server counts it like a failed handshake.
 * </ul>
 * One virtual thread per server socket watches the oldest session, waking at its deadline (or, while none
 * waits, once per timeout): a session queued while it slept has a later deadline than its wake-up, so none
 * outlives its deadline by more than a wake-up's delay, and the queue's hot path pays nothing for it.
 */
final class AcceptQueue {
    /** Queued for {@code accept()} when the acceptor group fails or closes: every later {@code accept()} fails. */
    private record Ended(IOException cause) {
    }

    /** A session and when it was queued ({@code System.nanoTime()}). */
    private record Queued(SessionSocket session, long queuedAt) {
    }

    private final LinkedBlockingQueue<Object> ready = new LinkedBlockingQueue<>();
    /** Sessions in {@link #ready} (the {@link Ended} marker not counted). */
    private final AtomicInteger waiting = new AtomicInteger();
    private final int bound;
    /** The accept timeout in nanoseconds; negative: none. */
    private final long timeoutNanos;
    private final int port;
    /** Told of each session failed at the accept timeout, with the reason (counts it, gives its slot back). */
    private final Consumer<String> expired;
    /**
     * How long the oldest session may have waited, with the queue full, before a new one is refused rather
     * than made to wait for room: 5 s, or half the accept timeout when that is shorter.
     */
    private final long stuckNanos;
    /** Handshakes waiting for room in a full queue ({@link #refusal}); signalled as sessions leave it. */
    private final java.util.concurrent.locks.ReentrantLock roomLock = new java.util.concurrent.locks.ReentrantLock();
    private final java.util.concurrent.locks.Condition room = roomLock.newCondition();
    private final AtomicInteger waitingForRoom = new AtomicInteger();
    private volatile Thread watcher;
    private volatile boolean closed;

    /**
     * A queue for session port {@code port}, bounded by {@code bound} sessions and {@code timeout} (null:
     * no age bound); {@code expired} is told the reason of each session it fails.
     */
    AcceptQueue(int port, int bound, Duration timeout, Consumer<String> expired) {
        this.port = port;
        this.bound = bound;
        this.timeoutNanos = timeout == null ? -1 : timeout.toNanos();
        this.expired = expired;
        long stuck = TimeUnit.SECONDS.toNanos(5);
        this.stuckNanos = timeout == null ? stuck : Math.min(stuck, timeout.toNanos() / 2);
    }

    /** Starts watching ages (once, when the server socket opens; nothing to watch without a timeout). */
    void start() {
        if (timeoutNanos >= 0) {
            watcher = Thread.ofVirtual().name("sj-accept-timeout-" + port).start(this::watch);
        }
    }

    /**
     * Null once a compatible session may be queued, else why it is refused; asked as each handshake agrees
     * (on its own thread, which may wait here for room: see the class comment). Handshakes that agree at the
     * same moment may queue a few past the bound (all of them within {@code sessionj.maxPendingHandshakes}).
     */
    String refusal() {
        if (waiting.get() < bound) {
            return null;
        }
        waitingForRoom.incrementAndGet();
        roomLock.lock();
        try {
            while (true) {
                int now = waiting.get();
                if (now < bound || closed) {
                    return null; // a closed queue refuses it in add(), which closes its connection
                }
                long age = ready.peek() instanceof Queued oldest ? System.nanoTime() - oldest.queuedAt() : 0;
                if (age >= stuckNanos) {
                    return "session port " + port + " has " + now + " sessions agreed and not yet taken by accept(),"
                            + " its limit (sessionj.acceptQueue), and the oldest has waited "
                            + Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(age)) + ": the server's program is not"
                            + " taking sessions (is its accept loop running?); try again later";
                }
                room.awaitNanos(stuckNanos - age);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for room in the accept queue of session port " + port;
        } finally {
            roomLock.unlock();
            waitingForRoom.decrementAndGet();
        }
    }

    /** A session left the queue: one handshake waiting for room may go on. */
    private void left() {
        if (waiting.decrementAndGet() < bound && waitingForRoom.get() > 0) {
            roomLock.lock();
            try {
                room.signal();
            } finally {
                roomLock.unlock();
            }
        }
    }

    /** Queues an agreed session; false (not queued) once the queue is closed. */
    boolean add(SessionSocket session) {
        Queued queued = new Queued(session, System.nanoTime());
        waiting.incrementAndGet();
        ready.add(queued);
        if (closed && ready.remove(queued)) {
            waiting.decrementAndGet();
            return false; // close() may have drained the queue before this one came in
        }
        return true;
    }

    /**
     * The next session: the session, {@code null} after {@code timeoutNanos} (negative waits forever).
     *
     * @throws IOException if the acceptors failed or were closed
     */
    SessionSocket next(long timeoutNanos) throws IOException {
        Object next;
        try {
            next = timeoutNanos < 0 ? ready.take() : ready.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while accepting on session port " + port);
        }
        if (next == null) {
            return null;
        }
        if (next instanceof Ended ended) {
            ready.add(ended); // for the next caller
            throw new IOException(ended.cause().getMessage(), ended.cause());
        }
        left();
        return ((Queued) next).session();
    }

    /** Every later {@code next} fails with {@code cause} (the acceptors failed: nothing more will come). */
    void end(IOException cause) {
        ready.add(new Ended(cause));
    }

    /**
     * Closes the queue: {@code drained} gets each session not taken (to close), every later {@code next}
     * fails with {@code cause}.
     */
    void close(IOException cause, Consumer<SessionSocket> drained) {
        closed = true;
        Thread w = watcher;
        if (w != null) {
            LockSupport.unpark(w);
        }
        Object next;
        while ((next = ready.poll()) != null) {
            if (next instanceof Queued queued) {
                waiting.decrementAndGet();
                drained.accept(queued.session());
            }
        }
        ready.add(new Ended(cause));
        roomLock.lock();
        try {
            room.signalAll(); // handshakes waiting for room end; their sessions are closed in add()
        } finally {
            roomLock.unlock();
        }
    }

    /** Sessions waiting for {@code accept()}. */
    int waiting() {
        return waiting.get();
    }

    /** The watcher: fails the oldest session once it waited past the timeout, then looks at the next. */
    private void watch() {
        while (!closed) {
            Object head = ready.peek();
            long wait = timeoutNanos;
            if (head instanceof Ended) {
                return;
            }
            if (head instanceof Queued queued) {
                wait = queued.queuedAt() + timeoutNanos - System.nanoTime();
                if (wait <= 0) {
                    if (ready.remove(queued)) { // else accept() took it first
                        left();
                        expire(queued.session());
                    }
                    continue;
                }
            }
            LockSupport.parkNanos(this, wait);
        }
    }

    private void expire(SessionSocket session) {
        String reason = "the server did not accept the session within " + Duration.ofNanos(timeoutNanos)
                + " (sessionj.acceptTimeout at the server): session port " + port + " agreed it, but the server's"
                + " program did not call accept() for it in that time (is its accept loop running?)";
        expired.accept(reason); // counted first: whoever hears of it from the requester finds it counted
        try {
            session.fail(reason, true, null); // tells the requester, closes the connection
        } catch (RuntimeException e) {
            // The requester is gone already: nothing to tell.
        }
    }
}
