package org.sessionj.transport.netty.internal;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.runtime.spi.support.Heartbeat;

/**
 * Heartbeats for a blocking acceptor's connections that have not had a whole frame from their requester
 * yet (waiting in the acceptor's queue, or in a handshake that waits for the request): one (platform) thread
 * per acceptor writes a heartbeat to each of them once per interval, so that a requester waiting for its
 * answer behind a flood hears the server is alive. A connection gets its own {@link BlockingKeeper} with
 * its first whole frame ({@link BlockingConnection#read}); this thread then lets it go.
 *
 * <p>Why not a keeper per connection from its accept, as before: a slowloris's connections wait by the
 * thousand (up to 4,096 queued and 4,096 in handshakes), and each keeper was a parked virtual thread with a
 * timer that started another virtual thread for every heartbeat (~1,600 thread starts a second for
 * 8,192 connections); a server held to 0.15 of a core spent about a fifth of its time on them while a real
 * client waited behind the flood (docs/reliability.md, Fault tests).
 *
 * <p>The heartbeats are written on this thread, not on one of their own as a keeper does: a write can
 * block only when the peer's receive buffer and this socket's send buffer are full, and nothing has been
 * written to these connections but these 4-byte heartbeats, at most {@link #MOST} of them (256 bytes,
 * far below any socket buffer); a connection still waiting after that many intervals (5 min by default)
 * gets no more, and its requester, who has long passed its own initiation timeout, takes the server for
 * gone.
 */
final class PendingHeartbeats implements Runnable {
    /** The most heartbeats written to one connection. */
    static final int MOST = 64;

    private final ConcurrentLinkedQueue<BlockingConnection> pending = new ConcurrentLinkedQueue<>();
    private final long intervalNanos;
    private volatile Thread thread;
    private volatile boolean closed;

    /** Heartbeats every {@code heartbeat} interval, on a thread named for {@code acceptor}; none when heartbeats are off. */
    PendingHeartbeats(Heartbeat heartbeat, String acceptor) {
        this.intervalNanos = heartbeat.enabled() ? heartbeat.intervalNanos() : 0;
        if (intervalNanos > 0) {
            // A platform thread: a virtual thread's write would make the JDK switch each socket to non-blocking
            // mode for good, and a session run on a platform thread afterwards would pay two more system calls
            // per read ({@link PlatformWriters}).
            thread = Thread.ofPlatform().daemon().name("sj-" + acceptor + "-pending-heartbeats").start(this);
        }
    }

    /** Takes {@code connection} (just accepted, without a keeper) until it has its own keeper or closes. */
    void add(BlockingConnection connection) {
        if (intervalNanos == 0) {
            return; // heartbeats off: nothing to write for it
        }
        pending.add(connection);
        if (closed && pending.remove(connection)) {
            return; // the acceptor closed meanwhile: its queue closes the connection
        }
    }

    /** How many connections it writes heartbeats to (for tests). */
    int size() {
        return pending.size();
    }

    @Override
    public void run() {
        while (!closed) {
            LockSupport.parkNanos(this, intervalNanos);
            if (!closed) {
                try {
                    beat();
                } catch (Throwable e) {
                    // This thread serves every pending connection of the acceptor: it must outlive one bad
                    // round (an OutOfMemoryError while a flood fills the heap killed it, and the port then
                    // accepted connections and answered no one; hostile H5). The next round tries again.
                }
            }
        }
        pending.clear();
    }

    /** One round: a heartbeat to each connection still waiting; those done or closed are let go. */
    void beat() {
        for (Iterator<BlockingConnection> it = pending.iterator(); it.hasNext(); ) {
            BlockingConnection connection = it.next();
            if (connection.isClosed() || connection.hasOwnKeeper() || connection.pendingHeartbeats() >= MOST) {
                it.remove();
                continue;
            }
            connection.writePendingHeartbeat();
        }
    }

    /** Stops the thread (the acceptor closed; its queue closes the connections). */
    void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
