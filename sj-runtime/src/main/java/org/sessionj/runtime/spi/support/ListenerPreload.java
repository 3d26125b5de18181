package org.sessionj.runtime.spi.support;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Loads, once per JVM, what logging later reads from a file, while the process still has descriptors
 * to spare: the JDK's time-zone data, which {@code java.util.logging}'s formatter loads on the first
 * line it writes. A network listener calls {@link #afterListen}; peers can then use up the process's
 * descriptors (sessions they open and never close, connections the server cannot accept), and the first
 * line logged at that moment (Netty's warning about the failed accept, or a failed handshake) found no
 * descriptor for {@code tzdb.dat}: the time-zone classes failed to initialise and stayed broken for the
 * JVM's life, so every later line threw {@code NoClassDefFoundError}, which ended the event loop that
 * accepted the server's connections. The server never accepted again, even once the descriptors were
 * back (docs/reliability.md, "Hostile peers and load").
 *
 * <p>In the background and a second after the first listen, so that a program's first session (the
 * cold start) does not pay for it: loading the data costs tens of milliseconds of CPU in a fresh JVM.
 */
public final class ListenerPreload {
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static final CountDownLatch DONE = new CountDownLatch(1);
    /** How long after the first listen the data is loaded. */
    static final long DELAY_MILLIS = 1_000;

    private ListenerPreload() {
    }

    /** Called by a network transport once it listens; the first call starts the load, later ones do nothing. */
    public static void afterListen() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        try {
            Thread.ofVirtual().name("sj-listener-preload").start(() -> {
                try {
                    Thread.sleep(DELAY_MILLIS);
                    java.time.ZoneId.systemDefault(); // TimeZone.getDefault(): reads lib/tzdb.dat once
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException | LinkageError e) {
                    // descriptors already gone: nothing more to do here (the loggers drop what they cannot write)
                } finally {
                    DONE.countDown();
                }
            });
        } catch (RuntimeException | OutOfMemoryError e) {
            DONE.countDown(); // no thread to be had: the data loads with the first line logged, as before
        }
    }

    /**
     * For tests: waits until the load has run (after {@link #afterListen}).
     *
     * @return whether it ran within the timeout
     */
    public static boolean awaitLoaded(long timeout, TimeUnit unit) throws InterruptedException {
        return DONE.await(timeout, unit);
    }
}
