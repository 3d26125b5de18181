package org.sessionj.bench;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.SpscArrayQueue;

/**
 * The bare baseline: one JCTools SPSC queue with the same wait strategy as the in-JVM transport
 * (poll, a short spin, then park on a waiter field), and nothing else.
 */
final class ParkingSpscChannel {
    private static final int SPINS = org.sessionj.runtime.spi.support.SystemSettings.system().integer("shm.spins", 200);

    private final SpscArrayQueue<Object> queue = new SpscArrayQueue<>(1024);
    private volatile Thread waiter;

    void offer(Object value) {
        queue.offer(value);
        VarHandle.fullFence();
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    Object take() {
        Object value = queue.poll();
        if (value != null) {
            return value;
        }
        for (int i = 0; i < SPINS; i++) {
            Thread.onSpinWait();
            value = queue.poll();
            if (value != null) {
                return value;
            }
        }
        waiter = Thread.currentThread();
        try {
            while ((value = queue.poll()) == null) {
                LockSupport.park(this);
            }
            return value;
        } finally {
            waiter = null;
        }
    }
}
