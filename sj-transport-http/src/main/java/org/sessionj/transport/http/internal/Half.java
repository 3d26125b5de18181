package org.sessionj.transport.http.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's (or relay's) state for one client of a tunnelled connection: the stream of bytes the
 * client uploads ({@link #in}), the stream it downloads ({@link #out}), and whether it is still there.
 * A client is there while it has a request in flight (a held poll, a held upload, a WebSocket); one
 * with none for the vanish time has vanished.
 */
public final class Half {
    private final String token;
    private final ByteStream in;
    private final ByteStream out;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicBoolean webSocket = new java.util.concurrent.atomic.AtomicBoolean();
    private final long createdNanos = System.nanoTime();
    private volatile long lastSeenNanos = System.nanoTime();
    private volatile boolean seen;
    private volatile boolean done;
    private final io.netty.channel.EventLoop home;
    private volatile boolean servedAway;
    /** A WebSocket carries the download and the socket has not yet taken its end (see {@link #endInChannel()}). */
    private volatile boolean endInChannel;
    /** While the half is counted as opened and not used: the address it was opened from (see {@link UnusedOpens}). */
    private volatile java.net.InetAddress unusedFrom;
    /** The address it was opened from, if counted (kept after its first use, for the log). */
    private volatile java.net.InetAddress openedFrom;
    /** The server's end that assembles this half's uploads into frames (direct servers), or null. */
    private volatile ServedConnection server;
    /** Run once when the half stops being unused (its first request or its end); null: not counted, or run. */
    private volatile Runnable unusedEnds;
    private static final java.util.concurrent.atomic.AtomicReferenceFieldUpdater<Half, Runnable> UNUSED_ENDS =
            java.util.concurrent.atomic.AtomicReferenceFieldUpdater.newUpdater(Half.class, Runnable.class, "unusedEnds");

    /** A half with token {@code token} reading {@code in} from its client and writing {@code out} to it. */
    public Half(String token, ByteStream in, ByteStream out) {
        this(token, in, out, null);
    }

    /**
     * A half whose requests are served on {@code home} (null: wherever they arrive). The relay gives both
     * halves of a pair one home loop, so that bytes uploaded by one side answer the other's held poll on
     * the same thread, without a hand-off to another loop.
     */
    public Half(String token, ByteStream in, ByteStream out, io.netty.channel.EventLoop home) {
        this.token = token;
        this.in = in;
        this.out = out;
        this.home = home;
    }

    /** The event loop this half's requests are served on, or null for any. */
    public io.netty.channel.EventLoop home() {
        return home;
    }

    /** Records that a request of this half was served off its home loop (the move failed). */
    void servedAway() {
        servedAway = true;
    }

    /** Whether a request of this half was ever served off its home loop (for tests: it should not). */
    public boolean wasServedAway() {
        return servedAway;
    }

    /** The client's secret. */
    public String token() {
        return token;
    }

    /** What the client uploads. */
    public ByteStream in() {
        return in;
    }

    /** What the client downloads. */
    public ByteStream out() {
        return out;
    }

    /** A request of the client arrived (or a WebSocket attached). */
    public void enter() {
        if (!seen) {
            seen = true;
            endUnused();
        }
        inFlight.incrementAndGet();
        lastSeenNanos = System.nanoTime();
    }

    /** A request of the client was answered (or its WebSocket closed). */
    public void exit() {
        lastSeenNanos = System.nanoTime();
        inFlight.decrementAndGet();
    }

    /**
     * Counts the half as opened from {@code from} and not used until its first request or its end, when
     * {@code ends} runs (once).
     */
    void countUnused(java.net.InetAddress from, Runnable ends) {
        openedFrom = from;
        unusedFrom = from;
        unusedEnds = ends;
        if (seen || done) {
            endUnused(); // used or ended meanwhile
        }
    }

    /** The address it was opened from while it is counted as unused; null otherwise. */
    java.net.InetAddress unusedFrom() {
        return unusedFrom;
    }

    /** The address it was opened from, if it was counted (null: never counted). */
    java.net.InetAddress openedFrom() {
        return openedFrom;
    }

    private void endUnused() {
        Runnable ends = UNUSED_ENDS.getAndSet(this, null);
        if (ends != null) {
            unusedFrom = null;
            ends.run();
        }
    }

    /** Whether the client ever made a request (a relay's server half must, within the pairing time). */
    public boolean seen() {
        return seen;
    }

    /** Nanoseconds since the half was made. */
    public long ageNanos(long now) {
        return now - createdNanos;
    }

    /** Whether the client has had no request in flight for {@code millis}. */
    public boolean idleFor(long now, long millis) {
        return inFlight.get() <= 0 && now - lastSeenNanos > TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /**
     * Claims the half for a WebSocket: false if one is attached already. A half has one client, and
     * that client never attaches twice (a lost WebSocket fails the connection), so a second claim is
     * someone else holding the token.
     */
    public boolean claimWebSocket() {
        return webSocket.compareAndSet(false, true);
    }

    /** The WebSocket upgrade failed after its claim: the client may fall back to long polling. */
    public void unclaimWebSocket() {
        webSocket.set(false);
    }

    /** Whether a WebSocket carries this half (then polls and uploads for it are someone else's). */
    public boolean hasWebSocket() {
        return webSocket.get();
    }

    /**
     * Whether a WebSocket carries the download and its end (with the last bytes before it) may still be in
     * the channel's buffer, not yet taken by the socket. Over WebSocket the download stream is acknowledged
     * as soon as its bytes are handed to the channel, so an empty stream alone does not mean they left the
     * process: a server's end that closes and waits for its download ({@code ServedConnection.close}) waits
     * for this too, or the program could exit with the last frames still in Netty's buffer (hostile17 H1).
     */
    public boolean endInChannel() {
        return endInChannel;
    }

    /** The WebSocket took the download (true), or the socket took its end or failed to (false). */
    void endInChannel(boolean inChannel) {
        endInChannel = inChannel;
    }

    /** Whether the half is over (closed by its client, or vanished). */
    public boolean isDone() {
        return done;
    }

    /** The client closed: it sends and reads nothing more (its upload stream is finished already). */
    public void closedByClient() {
        done = true;
        endUnused();
        in.finish();
        out.closeReader("the peer closed the connection");
    }

    /** The client is gone without closing: its peer's reads fail after what arrived, its writes are refused. */
    public void vanish(String reason) {
        done = true;
        endUnused();
        in.fail(reason);
        out.closeReader(reason);
    }

    /**
     * Fails the connection to free the memory it holds ({@link StreamMemory}): its server's reader gets what it
     * took already and then {@code reason}, its uploads not yet read are dropped, and so are its answers not yet
     * downloaded; its server's writes and its client's requests are refused with {@code reason}.
     */
    void failForMemory(String reason) {
        ServedConnection served = server;
        if (served != null) {
            served.dropFrames(reason); // the frames assembled and not read go too
        }
        done = true;
        endUnused();
        in.fail(reason); // wakes the server's reader, which then reads the failure
        in.closeReader(reason);
        out.closeReader(reason);
    }

    /** The server's end assembles this half's uploads (a direct server): its waiting frames count as held. */
    void servedBy(ServedConnection connection) {
        this.server = connection;
    }

    /**
     * The bytes this connection holds: uploads not yet taken, answers not yet downloaded and, on a direct
     * server, the frames assembled from the uploads that its program has not read yet.
     */
    long heldBytes() {
        ServedConnection served = server;
        return in.buffered() + out.buffered() + (served == null ? 0 : served.framesWaiting());
    }

    /** Releases every buffered byte (the half is being forgotten). */
    public void dispose() {
        done = true;
        endUnused();
        in.dispose();
        out.dispose();
    }
}
