package org.sessionj.bench;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.SpscArrayQueue;
import org.sessionj.runtime.spi.support.SpinThenPark;

/**
 * The bare baseline: one JCTools SPSC queue with the same wait strategy as the in-JVM transport
 * (poll, spin {@code sessionj.shm.spins} times, yield {@code sessionj.shm.yields} times, then park
 * on a waiter field), and nothing else.
 */
final class ParkingSpscChannel {
    private static final SpinThenPark IDLE = SpinThenPark.fromSetting("shm.spins", SpinThenPark.defaultSpins())
            .withYieldsFromSetting("shm.yields", 20);
    private static final int SPINS = IDLE.spins();
    private static final int YIELDS = IDLE.yields();

    private final SpscArrayQueue<Object> queue;
    private volatile Thread waiter;

    /** A channel of 1,024 slots. */
    ParkingSpscChannel() {
        this(1024);
    }

    /** A channel of {@code capacity} slots (at least 4). */
    ParkingSpscChannel(int capacity) {
        queue = new SpscArrayQueue<>(capacity);
    }

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
        for (int i = 0; i < (Thread.currentThread().isVirtual() ? 0 : SPINS); i++) {
            Thread.onSpinWait();
            value = queue.poll();
            if (value != null) {
                return value;
            }
        }
        for (int i = 0; i < YIELDS; i++) {
            Thread.yield();
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
