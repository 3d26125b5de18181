package org.sessionj.transport.ipc;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.sessionj.runtime.spi.support.Heartbeat;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one thread per JVM that watches the doorbells of every ipc connection: a platform daemon
 * thread ({@value #THREAD_NAME}, started with the first connection) waiting in a {@link Selector}
 * over the connections' Unix sockets. When a socket becomes readable it drains the bells, wakes the
 * connection's reader and runs its readiness listener; at the socket's end (the peer closed it, or
 * its process died) it tells the connection that the peer is gone and stops watching it.
 *
 * <p>A reader on a platform thread sleeps on its connection's socket itself ({@link DirectWait}), so
 * that the kernel wakes it directly; such a socket stays registered here with no interest, for the
 * heartbeats, and is drained here once per heartbeat interval so that a silent or dead peer is still
 * found while nobody waits on it.
 *
 * <p>It also keeps the connections alive ({@link Heartbeat}): every heartbeat interval it rings each
 * peer once, whether or not data went its way, and a connection whose peer was not heard (no bell,
 * no heartbeat) for the heartbeat timeout fails as if the peer had closed its socket. A frozen peer
 * process (SIGSTOP) rings nobody, so it is detected although its socket stays open.
 *
 * <p>One thread rather than one per connection, so that thousands of connections cost no more
 * threads than one; a platform thread rather than a virtual one, because a virtual thread waiting
 * for a socket is woken by the JDK's poller and then scheduled on a carrier, two hand-offs more
 * before the reader runs. Registration may come from any thread ({@link SocketChannel#register}
 * does not wait for a selection in progress; {@link Selector#wakeup} makes it count at once). A
 * connection that fails, or a listener that throws, costs only that connection its doorbell: the
 * thread goes on serving the others.
 */
final class Doorbells {
    static final String THREAD_NAME = "sj-ipc-doorbells";
    private static final System.Logger LOG = System.getLogger(Doorbells.class.getName());
    private static final ReentrantLock LOCK = new ReentrantLock();
    /** The watching thread's state, made by the first registration; replaced only if its selector fails. */
    private static Doorbells running; // guarded by LOCK

    private final Selector selector;
    /** Only the watching thread reads into it. */
    private final ByteBuffer bells = ByteBuffer.allocateDirect(256);
    /** Reads of one ready doorbell per turn (4 KiB of bells), so a flood of bells cannot hold the thread. */
    static final int MAX_DRAIN_READS = 16;
    private static final ByteBuffer HEARTBEAT = ByteBuffer.wrap(new byte[] {2}).asReadOnlyBuffer();
    private final Heartbeat heartbeat = Heartbeat.fromSystemProperties();
    private long lastBeat = System.nanoTime();
    /** Doorbell sockets found readable and drained, ever (written by the watching thread only; for tests). */
    private static volatile long served;

    private Doorbells(Selector selector) {
        this.selector = selector;
    }

    /**
     * Watches {@code socket} (made non-blocking here) for {@code inbound}; the socket's close stops
     * the watching, and {@link #forget} then releases the socket at once.
     *
     * @param watched whether to watch the socket from now on; if not (readers sleep on it themselves,
     *     {@link DirectWait}), it is registered for the heartbeats only, until its interest is set
     * @return the registration, to hand to {@link #forget} after closing the socket
     * @throws IOException if the socket is already closed or the selector cannot be opened
     */
    static SelectionKey watch(SocketChannel socket, IpcInbound inbound, boolean watched) throws IOException {
        socket.configureBlocking(false);
        LOCK.lock();
        try {
            if (running == null) {
                Doorbells doorbells = new Doorbells(Selector.open());
                Thread.ofPlatform().daemon().name(THREAD_NAME).start(doorbells::run);
                running = doorbells;
            }
            SelectionKey key = socket.register(running.selector, watched ? SelectionKey.OP_READ : 0, inbound);
            if (watched) {
                running.selector.wakeup(); // so that the registration counts at once
            }
            return key;
        } finally {
            LOCK.unlock();
        }
    }

    /**
     * Stops watching (a closed socket's registration is already cancelled) and makes the watching
     * thread drop the registration now, which lets the socket's file descriptor go.
     */
    static void forget(SelectionKey key) {
        key.cancel();
        key.selector().wakeup();
    }

    private void run() {
        Throwable failure = null;
        try {
            long tickMillis = Math.max(1, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(heartbeat.intervalNanos() / 2));
            while (true) {
                if (heartbeat.enabled()) {
                    selector.select(this::serve, tickMillis);
                    beat();
                } else {
                    selector.select(this::serve);
                }
            }
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            retire(failure);
        }
    }

    /** How many times a doorbell thread drained a socket that had something (for tests). */
    static long served() {
        return served;
    }

    /** Drains one ready doorbell; whatever goes wrong is this connection's alone. */
    private void serve(SelectionKey key) {
        IpcInbound inbound = (IpcInbound) key.attachment();
        boolean rang = false;
        boolean ended = false;
        try {
            SocketChannel socket = (SocketChannel) key.channel();
            int n;
            int reads = 0;
            do {
                bells.clear();
                n = socket.read(bells);
                rang |= n > 0;
                // A shorter read took all there was. Else read on, but only a few times: a peer that writes
                // bells faster than they are read would keep this one thread, and every other connection's
                // wake-up, here for as long as it likes. What is left keeps the socket ready for the next select.
            } while (n == bells.capacity() && ++reads < MAX_DRAIN_READS);
            ended = n < 0;
            if (rang) {
                inbound.heard(System.nanoTime());
                served++; // only this thread writes it
            }
        } catch (IOException e) {
            ended = true; // closed here, or the peer's socket broke: either way no more bells
        }
        if (rang) {
            try {
                inbound.rung();
            } catch (RuntimeException e) {
                listenerFailed(e);
            }
        }
        if (ended) {
            key.cancel();
            try {
                inbound.peerGone();
            } catch (RuntimeException e) {
                listenerFailed(e);
            }
        }
    }

    /** Once per heartbeat interval: rings every peer, and fails the connections whose peer fell silent. */
    private void beat() {
        long now = System.nanoTime();
        if (now - lastBeat < heartbeat.intervalNanos()) {
            return;
        }
        lastBeat = now;
        for (SelectionKey key : selector.keys()) {
            if (!key.isValid()) {
                continue;
            }
            IpcInbound inbound = (IpcInbound) key.attachment();
            try {
                ((SocketChannel) key.channel()).write(HEARTBEAT.duplicate());
            } catch (IOException e) {
                // the socket's end shows as its end of stream, served like any
            }
            try {
                if (key.interestOps() == 0) {
                    serve(key); // left to readers that sleep on it themselves: hear what came meanwhile
                }
            } catch (java.nio.channels.CancelledKeyException e) {
                continue; // closed meanwhile
            }
            if (!key.isValid()) {
                continue;
            }
            inbound.lookAtOwner(); // a session whose thread ended with it open fails (adv18 A13)
            if (now - inbound.lastHeard() > heartbeat.timeoutNanos() && !inbound.isPeerGone()) {
                key.cancel();
                try {
                    inbound.peerSilent("no bell and no heartbeat from the peer for "
                            + java.time.Duration.ofNanos(heartbeat.timeoutNanos()) + ": its process is frozen or gone"
                            + " (sessionj.heartbeat.timeout)");
                } catch (RuntimeException e) {
                    listenerFailed(e);
                }
            }
        }
    }

    private static void listenerFailed(RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "the readiness listener of an ipc connection failed", e);
    }

    /**
     * The selector itself failed (or the thread died): no connection watched here can be woken any
     * more, so each is told that its peer is gone rather than left waiting for ever; the next
     * connection starts a new thread.
     */
    private void retire(Throwable failure) {
        LOCK.lock();
        try {
            if (running == this) {
                running = null;
            }
            LOG.log(System.Logger.Level.ERROR, "the ipc doorbell thread stopped; its connections fail", failure);
            for (SelectionKey key : selector.keys()) {
                try {
                    ((IpcInbound) key.attachment()).peerGone();
                } catch (RuntimeException e) {
                    // the listener's failure must not keep the others waiting
                }
            }
            selector.close();
        } catch (IOException | RuntimeException e) {
            // closing a broken selector: nothing more to do
        } finally {
            LOCK.unlock();
        }
    }
}
