package org.sessionj.transport.shm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread per JVM that looks after the in-JVM readers parked waiting for their peer: every tick
 * (half the shortest {@code sessionj.shm.orphanTimeout} in use) it asks each parked reader's pipe
 * whether the writing end was left behind by its thread ({@link Pipe#lookAtWriter()}), which then wakes
 * its reader with the reason. A busy session pays nothing; a thousand idle sessions cost one wake-up
 * per tick, not a thousand.
 *
 * <p><b>No memory per wait.</b> The pipes are linked through their own {@link Pipe#nextWatched} field
 * (a set would cost each of a million idle sessions a 32-byte node and its slot, allocated at every
 * park): a reader about to park that finds its pipe off the lists ({@link Pipe#list()}, a
 * compare-and-set of its {@code listed} flag) pushes it onto {@link #arrivals}, a lock-free stack; the
 * watch thread moves the arrivals onto {@link #watched}, its own list, at each tick. A pipe whose reader
 * no longer waits is taken off at the watch's next look: the watch clears the flag and then looks
 * again whether the reader parked meanwhile; the reader sets its waiting state before it tries the
 * flag (both volatile), so either the reader's compare-and-set succeeds and it pushes the pipe again,
 * or the watch sees it parked and keeps it: no parked reader goes unwatched. Whoever set the flag owns
 * the pipe's link until the flag is cleared. A pipe closed while listed stays reachable from the list
 * until the next tick.
 */
final class OrphanWatch implements Runnable {
    static final OrphanWatch INSTANCE = new OrphanWatch(true);

    private static final VarHandle ARRIVALS;

    static {
        try {
            ARRIVALS = MethodHandles.lookup().findVarHandle(OrphanWatch.class, "arrivals", Pipe.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Pipes listed since the watch's last tick, newest first (pushed by parking readers). */
    @SuppressWarnings("unused") // through ARRIVALS
    private volatile Pipe arrivals;
    /** The pipes the watch looks at (the watch thread only). */
    private Pipe watched;
    private volatile long tickNanos = Long.MAX_VALUE;
    private Thread thread;
    /** Whether registering starts the watch thread (false: a test calls {@link #tick()} itself). */
    private final boolean threaded;

    OrphanWatch(boolean threaded) {
        this.threaded = threaded;
    }

    /** A reader of {@code pipe} parks; its writer is to be looked at every {@code tickNanos}. */
    void register(Pipe pipe, long tickNanos) {
        if (pipe.list()) {
            Pipe head;
            do {
                head = (Pipe) ARRIVALS.getVolatile(this);
                pipe.nextWatched = head;
            } while (!ARRIVALS.compareAndSet(this, head, pipe));
        }
        if (threaded && (tickNanos < this.tickNanos || thread == null)) {
            start(tickNanos);
        }
    }

    private synchronized void start(long tick) {
        if (tick < tickNanos) {
            tickNanos = tick;
        }
        if (thread == null) {
            Thread t = new Thread(this, "sj-shm-orphan-watch");
            t.setDaemon(true);
            t.start();
            thread = t;
        } else {
            LockSupport.unpark(thread); // a shorter tick than the one it sleeps
        }
    }

    @Override
    public void run() {
        while (true) {
            LockSupport.parkNanos(this, tickNanos);
            tick();
        }
    }

    /** One look at every listed pipe (the watch thread; a test's unthreaded watch is called directly). */
    void tick() {
        takeArrivals();
        Pipe previous = null;
        Pipe pipe = watched;
        while (pipe != null) {
            Pipe next = pipe.nextWatched;
            if (!stillWaiting(pipe)) {
                // Off the list; a reader that parks again lists it afresh. Its link is no longer ours.
                if (previous == null) {
                    watched = next;
                } else {
                    previous.nextWatched = next;
                }
                pipe = next;
                continue;
            }
            try {
                pipe.lookAtWriter();
            } catch (RuntimeException e) {
                // One pipe's trouble is not every other reader's: the next tick looks again.
            }
            previous = pipe;
            pipe = next;
        }
    }

    /** Whether the watch keeps {@code pipe}: its reader waits (looked at after letting go, see the class comment). */
    private static boolean stillWaiting(Pipe pipe) {
        if (pipe.readerParked()) {
            return true;
        }
        pipe.unlist();
        // Parked between the two looks: the reader's compare-and-set either failed (keep it, its link
        // untouched) or succeeded, and then the reader pushed it onto the arrivals itself.
        return pipe.readerParked() && pipe.list();
    }

    private void takeArrivals() {
        Pipe arrived = (Pipe) ARRIVALS.getAndSet(this, (Pipe) null);
        if (arrived == null) {
            return;
        }
        Pipe last = arrived;
        while (last.nextWatched != null) {
            last = last.nextWatched;
        }
        last.nextWatched = watched;
        watched = arrived;
    }

    /** How many pipes the watch looks at (the watch thread, or a test's unthreaded watch). */
    int watchedCount() {
        int n = 0;
        for (Pipe p = watched; p != null; p = p.nextWatched) {
            n++;
        }
        return n;
    }
}
