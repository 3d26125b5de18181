package org.sessionj.examples.chat;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A connected user as the server sees it: its ID and name, the bounded queue of events waiting for
 * its event stream, and a flood limit on what it sends. Offering never blocks: a client whose stream
 * falls {@link #OUTBOX_CAPACITY} events behind is dropped rather than slowing the others down.
 */
final class Member {
    /** How many events may wait for one client's stream before the client counts as too slow. */
    static final int OUTBOX_CAPACITY = 1024;

    private final int id;
    private final String name;
    private final BlockingQueue<Outgoing> outbox = new ArrayBlockingQueue<>(OUTBOX_CAPACITY);
    private final FloodLimit flood;
    private volatile boolean closed;
    private boolean joined;
    private final long registeredNanos;
    /** The address the member's session comes from, or null (its transport does not say). */
    private volatile java.net.InetAddress address;

    Member(int id, String name, FloodLimit flood, long registeredNanos) {
        this.id = id;
        this.name = name;
        this.flood = flood;
        this.registeredNanos = registeredNanos;
    }

    /** The address the member's session comes from, or null. */
    java.net.InetAddress address() {
        return address;
    }

    /** Records the address the member's session comes from (the server, once, after registering it). */
    void address(java.net.InetAddress from) {
        this.address = from;
    }

    /** When the member registered ({@code System.nanoTime()}, or the room's clock): it must join within the join timeout. */
    long registeredNanos() {
        return registeredNanos;
    }

    int id() {
        return id;
    }

    String name() {
        return name;
    }

    FloodLimit flood() {
        return flood;
    }

    /** Whether the member has joined the global channel (guarded by the room). */
    boolean joined() {
        return joined;
    }

    void markJoined() {
        joined = true;
    }

    boolean closed() {
        return closed;
    }

    /** Queues {@code event} for the stream; false (and the member is dropped) when the queue is full. */
    boolean offer(Outgoing event) {
        if (closed) {
            return false;
        }
        if (outbox.offer(event)) {
            return true;
        }
        drop("the client fell more than " + OUTBOX_CAPACITY + " events behind");
        return false;
    }

    /** Ends the stream normally after what is queued; nothing is queued after it. */
    synchronized void finish(Outgoing.Quit quit) {
        if (!closed) {
            closed = true;
            if (!outbox.offer(quit)) {
                outbox.clear();
                outbox.offer(quit);
            }
        }
    }

    /**
     * Fails the stream at once; what is queued is discarded. A stream already finished keeps its ending: the
     * session that quit is dropped on its way out too (ChatServer's finally), and that must not turn the
     * client's orderly QUIT, still queued, into a failed stream.
     */
    synchronized void drop(String reason) {
        if (closed) {
            return;
        }
        closed = true;
        outbox.clear();
        outbox.offer(new Outgoing.Drop(reason));
    }

    /** The next event for the stream, waiting at most {@code timeoutMillis}; null on timeout. */
    Outgoing next(long timeoutMillis) throws InterruptedException {
        return outbox.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public String toString() {
        return name + " (" + id + ")";
    }
}
