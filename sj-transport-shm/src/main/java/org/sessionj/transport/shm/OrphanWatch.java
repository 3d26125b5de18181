package org.sessionj.transport.shm;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread per JVM that looks after the in-JVM readers parked waiting for their peer: every tick
 * (half the shortest {@code sessionj.shm.orphanTimeout} in use) it asks each parked reader's pipe
 * whether the writing end was left behind by its thread ({@link Pipe#lookAtWriter()}), which then wakes
 * its reader with the reason. Readers register only when they park, so a busy session pays nothing
 * and an idle one a set entry; a thousand idle sessions cost one wake-up per tick, not a thousand.
 */
final class OrphanWatch implements Runnable {
    static final OrphanWatch INSTANCE = new OrphanWatch();

    private final Set<Pipe> parked = ConcurrentHashMap.newKeySet();
    private volatile long tickNanos = Long.MAX_VALUE;
    private Thread thread;

    private OrphanWatch() {
    }

    /** A reader of {@code pipe} parks; its writer is to be looked at every {@code tickNanos}. */
    void register(Pipe pipe, long tickNanos) {
        parked.add(pipe);
        if (tickNanos < this.tickNanos || thread == null) {
            start(tickNanos);
        }
    }

    /** The reader of {@code pipe} stopped waiting. */
    void unregister(Pipe pipe) {
        parked.remove(pipe);
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
            for (Pipe pipe : parked) {
                try {
                    pipe.lookAtWriter();
                } catch (RuntimeException e) {
                    // One pipe's trouble is not every other reader's: the next tick looks again.
                }
            }
        }
    }
}
