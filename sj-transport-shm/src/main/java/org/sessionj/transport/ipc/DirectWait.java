package org.sessionj.transport.ipc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * How a reader on a platform thread sleeps on an ipc connection: in a selector of the connection's
 * own over the doorbell socket, so that the kernel wakes the reader itself when the peer rings,
 * instead of waking the shared doorbell thread ({@link Doorbells}), which would then wake the reader
 * (one thread hand-off less per message that finds its reader asleep).
 *
 * <p>The doorbell thread keeps the socket registered but stops watching it ({@link #unwatch}: interest
 * 0) while readers sleep here, so that one bell wakes one thread; it still rings the heartbeats and,
 * once per heartbeat interval, drains the socket of a connection nobody is waiting on (so that a
 * silent or dead peer is found). Readers that cannot sleep in a selector (virtual threads, whose
 * carrier it would hold) and readiness listeners need the doorbell thread: {@link #watch} gives the
 * socket back to it. The selector is opened with the first sleep here (two descriptors) and closed
 * with the connection.
 */
final class DirectWait {
    private final SocketChannel socket;
    private final SelectionKey doorbell;
    private final IpcInbound inbound;
    /** Only the reading thread (one read at a time) reads into it. */
    private final ByteBuffer bells = ByteBuffer.allocateDirect(64);
    private volatile Selector selector;
    /** Whether the doorbell thread watches the socket (interest OP_READ) or leaves it to sleeping readers. */
    private volatile boolean watched;
    private volatile boolean closed;

    /** Sleeps on {@code socket}, registered with the doorbell thread as {@code doorbell}, for {@code inbound}. */
    DirectWait(SocketChannel socket, SelectionKey doorbell, IpcInbound inbound, boolean watched) {
        this.socket = socket;
        this.doorbell = doorbell;
        this.inbound = inbound;
        this.watched = watched;
    }

    /** Whether {@code thread} may sleep here: a platform thread (a virtual one would hold its carrier). */
    static boolean suits(Thread thread) {
        return !thread.isVirtual();
    }

    /**
     * Sleeps until a bell, the socket's end, a {@link #wakeup}, or {@code nanos} (negative: no limit),
     * then drains the bells: each tells the inbound that the peer was heard, the socket's end that the
     * peer is gone. The caller looks at the ring and the connection's state afterwards.
     */
    void await(long nanos) throws IOException {
        Selector s = selector;
        if (s == null) {
            // The first sleep only opens the selector: a wake-up that came before it was there is seen
            // by the caller's look at the ring and the connection's state, which follows.
            open();
            return;
        }
        unwatch();
        try {
            if (nanos < 0) {
                s.select();
            } else {
                s.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)));
            }
            s.selectedKeys().clear();
        } catch (java.nio.channels.ClosedSelectorException e) {
            return; // the connection closed: the caller sees it
        }
        drain();
    }

    private synchronized void open() throws IOException {
        if (closed) {
            return;
        }
        Selector s = Selector.open();
        try {
            socket.register(s, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            s.close();
            if (!socket.isOpen()) {
                return; // closed meanwhile: the caller sees it
            }
            throw e;
        }
        selector = s;
    }

    /** Reads every bell there is without waiting; notes the peer heard, or gone at the socket's end. */
    private void drain() {
        try {
            int n;
            do {
                bells.clear();
                n = socket.read(bells);
                if (n > 0) {
                    inbound.heard(System.nanoTime());
                }
            } while (n == bells.capacity());
            if (n < 0) {
                inbound.peerGone();
            }
        } catch (IOException e) {
            if (socket.isOpen()) {
                inbound.peerGone(); // the socket broke; closed here, the caller sees the close
            }
        }
    }

    /** Wakes a reader sleeping here (or makes its next sleep return at once). */
    void wakeup() {
        Selector s = selector;
        if (s != null) {
            s.wakeup();
        }
    }

    /** Leaves the socket to readers sleeping here: the doorbell thread stops watching it. */
    private void unwatch() {
        if (watched) {
            watched = false;
            try {
                doorbell.interestOps(0);
            } catch (CancelledKeyException e) {
                // closed, or the peer is gone: the caller sees it
            }
        }
    }

    /** Gives the socket back to the doorbell thread (a reader that parks, or a readiness listener needs it). */
    void watch() {
        if (!watched) {
            watched = true;
            try {
                doorbell.interestOps(SelectionKey.OP_READ);
                doorbell.selector().wakeup(); // it counts from the next selection on
            } catch (CancelledKeyException e) {
                // closed, or the peer is gone: nothing to watch
            }
        }
    }

    /** Closes the selector (the connection is closing; a sleeping reader was woken before). */
    synchronized void close() {
        closed = true;
        Selector s = selector;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // nothing more to do
            }
        }
    }
}
