package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.runtime.spi.Connection;

/**
 * The server's end of a direct tunnelled connection: frames written go into the half's download
 * stream (behind 4-byte lengths) for the client's polls or WebSocket; the client's uploads are cut
 * into frames for the reader, no faster than the reader takes them (the upload stream then fills and
 * the client's uploads wait).
 */
final class ServedConnection extends StreamConnection {
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final int PUMP_BYTES = 1 << 20;

    private final Half half;
    /** The address the client's opening request came from (a proxy's, behind one), or null. */
    private final java.net.InetAddress peer;
    private final String description;
    private final FrameAssembler assembler;
    private final AtomicInteger pumpWork = new AtomicInteger();
    private long position;
    private volatile boolean paused;
    private boolean released;

    ServedConnection(String transportName, Half half, HttpSettings settings, String description) {
        this(transportName, half, settings, description, null);
    }

    /**
     * The server's end of {@code half}; the frames it has assembled and its program has not read yet are
     * charged to {@code frameBudget} (the process's {@link StreamMemory}), or to none when null.
     */
    ServedConnection(String transportName, Half half, HttpSettings settings, String description, Budget frameBudget) {
        this(transportName, half, settings, description, frameBudget, null);
    }

    /**
     * As {@link #ServedConnection(String, Half, HttpSettings, String, Budget)}, for a client whose opening request
     * came from {@code peer} (null: unknown), which {@link #peerAddress()} names.
     */
    ServedConnection(String transportName, Half half, HttpSettings settings, String description, Budget frameBudget,
            java.net.InetAddress peer) {
        super(transportName, settings, frameBudget);
        this.half = half;
        this.peer = peer;
        half.servedBy(this);
        this.description = transportName + " " + description;
        this.assembler = newAssembler();
        pump();
    }

    /**
     * The address the client's opening request came from, as this server's socket saw it (a proxy's, behind
     * one): the connections that carry the session's later polls or its WebSocket are the same client's (its
     * token), so the opening one's address stands for them. No system call.
     */
    @Override
    public java.net.InetAddress peerAddress() {
        return peer;
    }

    /** Moves uploaded bytes into frames; one thread at a time, re-run if asked meanwhile. */
    private void pump() {
        if (pumpWork.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            pumpOnce();
            missed = pumpWork.addAndGet(-missed);
        } while (missed != 0);
    }

    private void pumpOnce() {
        while (true) {
            if (closed) {
                if (!released) {
                    released = true;
                    assembler.release();
                }
                return;
            }
            if (inboundBytes.get() > settings.streamBytes()) {
                paused = true;
                readerBehind(true);
                if (inboundBytes.get() > settings.streamBytes()) {
                    return;
                }
                paused = false;
                readerBehind(false);
            }
            ByteStream.Chunk chunk = half.in().read(position, PUMP_BYTES);
            if (chunk == null) {
                if (half.in().awaitData(ready -> {
                    if (ready) {
                        pump();
                    }
                })) {
                    return;
                }
                continue;
            }
            if (chunk.failure() != null) {
                failInbound(chunk.failure());
                return;
            }
            if (chunk.bytes() != null) {
                position += chunk.bytes().readableBytes();
                try {
                    assembler.feed(chunk.bytes(), deliverer);
                } catch (IOException e) {
                    failInbound(e.getMessage());
                    half.out().fail(e.getMessage());
                    return;
                }
            }
            if (chunk.fin()) {
                half.in().read(position, 0); // acknowledge everything
                if (assembler.partialBytes() > 0) {
                    failInbound("the peer closed in the middle of a frame");
                } else {
                    inbound.end();
                }
                return;
            }
        }
    }

    @Override
    ByteStream outbound() {
        return half.out();
    }

    @Override
    void readerCaughtUp() {
        if (paused) {
            paused = false;
            readerBehind(false);
            pump();
        }
    }

    @Override
    void unfinishedFrameFailed(String reason) {
        failInbound(reason);
        half.out().fail(reason);
        half.in().closeReader(reason);
    }

    /**
     * Ends the download stream after what was written, and waits (at most ten seconds) until the
     * client has received it (long polling) or the socket has taken it (WebSocket), so that the process
     * may exit right after.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        inbound.close();
        half.out().finish();
        half.in().closeReader("the peer closed the connection");
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
        while (!delivered() && !half.isDone() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        pump(); // releases the assembler's bytes (here, or in a pump running now)
    }

    /**
     * Whether what was written has left this process: acknowledged by the client (long polling), or taken
     * by the socket up to the end (WebSocket: its stream is acknowledged when the channel takes the bytes,
     * see {@link Half#endInChannel()}).
     */
    boolean delivered() {
        return half.out().buffered() == 0 && !half.endInChannel();
    }

    @Override
    public String toString() {
        return description;
    }
}
