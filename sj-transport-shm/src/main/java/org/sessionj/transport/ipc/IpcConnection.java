package org.sessionj.transport.ipc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.sessionj.runtime.spi.Connection;

/**
 * One end of a cross-process shared-memory connection: frames travel through a ring per direction
 * in memory both processes map ({@link IpcMemory}); the Unix domain socket that set the connection
 * up stays open as the doorbell, watched by the JVM's one doorbell thread ({@link Doorbells}):
 * each byte wakes the reader and the selector's listener, and the socket's end (the peer closed, or
 * its process died) fails a reader that finds its ring empty.
 */
final class IpcConnection implements Connection {
    private static final ByteBuffer BELL = ByteBuffer.wrap(new byte[] {1}).asReadOnlyBuffer();

    private final SocketChannel socket;
    private final IpcMemory memory;
    private final ByteBufAllocator alloc;
    private final IpcInbound in;
    private final IpcOutbound out;
    private final SelectionKey doorbell;
    private final DirectWait direct;
    private final int direction;
    /** Told when this end is done with the memory (the requester's pool), or null. */
    private final MemoryPool pool;
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;

    /**
     * @param socket the set-up socket, done with the set-up exchange (it becomes non-blocking here)
     * @param direction the ring this end reads: 0 on the accepter's end, 1 on the requester's
     * @param pool where the memory goes back once both ends are done with it (the requester's end), or null
     * @throws IOException if the socket cannot be watched (it is closed)
     */
    IpcConnection(SocketChannel socket, IpcMemory memory, int direction, ByteBufAllocator alloc, IpcSettings settings,
            MemoryPool pool) throws IOException {
        this.socket = socket;
        this.memory = memory;
        this.alloc = alloc;
        this.direction = direction;
        this.pool = pool;
        int outDirection = 1 - direction;
        this.in = new IpcInbound(memory, direction, alloc, settings);
        this.out = new IpcOutbound(memory, outDirection, this::ring, in, settings.maxFrameBytes(), settings.backlogBytes());
        this.doorbell = Doorbells.watch(socket, in, false);
        this.direct = new DirectWait(socket, doorbell, in, false);
        in.directWait(direct);
    }

    /**
     * Rings the peer's doorbell. The socket does not block: a write that finds its buffer full
     * leaves the bell out, which loses nothing, since the peer has bells still to read, and the
     * read of them comes after this append. A peer that has closed its socket ({@link #bell}) makes
     * the peer count as gone: the frame is in the ring, and a later read or write says the rest.
     */
    private void ring() throws IOException {
        if (!bell(socket)) {
            in.peerGone();
        }
    }

    /**
     * Writes one bell to {@code socket}: false when the peer has closed its end (the write failed with
     * {@code EPIPE} or a reset). That is no failure of the frame just appended, which is in the shared
     * ring already, as TCP's data is in its send buffer when a write returns: the reader may have found
     * it by polling, answered or closed, and gone, while this writer, preempted between seeing the
     * "sleeping" flag and ringing, rang late (a rank's answer to another rank's last message failed so,
     * under load, with "Broken pipe"). If the peer died without reading it, the next read or write of
     * this end reports the lost connection, as TCP's does.
     *
     * @throws java.nio.channels.ClosedChannelException when this end's socket is closed
     */
    static boolean bell(java.nio.channels.WritableByteChannel socket) throws IOException {
        try {
            socket.write(BELL.duplicate());
            return true;
        } catch (java.nio.channels.ClosedChannelException e) {
            throw e;
        } catch (IOException e) {
            return false;
        }
    }

    /** The shared memory (for tests that damage it). */
    IpcMemory memory() {
        return memory;
    }

    /** The reading end (for tests). */
    IpcInbound inbound() {
        return in;
    }

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public void write(ByteBuf frame) throws IOException {
        out.write(frame);
    }

    @Override
    public void sendTimeout(long timeoutNanos) {
        out.sendTimeout(timeoutNanos);
    }

    @Override
    public void flush() {
        // Frames enter the shared memory as they are written (or as soon as the reader makes room).
    }

    @Override
    public ByteBuf read(long timeoutNanos) throws IOException {
        return in.read(timeoutNanos);
    }

    @Override
    public boolean isReadable() {
        return in.isReadable();
    }

    @Override
    public void readinessListener(Runnable listener) {
        in.listener(listener);
    }

    /** The doorbell thread looks at it once per heartbeat interval (adv18 A13). */
    @Override
    public void ownerWatch(org.sessionj.runtime.spi.OwnerWatch watch) {
        in.ownerWatch(watch);
    }

    @Override
    public String transportName() {
        return IpcTransport.NAME;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /**
     * A failed session's close: as {@link #close}, without waiting for a reader that takes nothing (the backlog
     * is dropped at once; before, the close waited up to 10 s for it).
     */
    @Override
    public void closeFailed() {
        out.dropBacklogOnClose();
        close();
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        out.close();        // returns once nothing will append any more
        in.close(this::done); // done once no read is in progress
        try {
            socket.close();
        } catch (IOException e) {
            // nothing more to do: the peer sees the socket's end either way
        }
        Doorbells.forget(doorbell);
        direct.close();
    }

    /**
     * This end will not touch the memory again: say so in it, and give it back to the pool, or unmap it.
     * Runs once the reader is quiet (no read in progress, none to come), which {@link #close} asks for
     * only after the writer closed (nothing appends any more): so no thread of this connection copies to
     * or from the ring by raw address after the unmap (see {@link Mapping}). The doorbell thread may
     * still look at a sleeping flag; that access is checked and fails ({@link IpcInbound#arm}).
     */
    private void done() {
        boolean peerVanished = in.isPeerGone();
        try {
            memory.done(direction);
        } catch (InternalError | IllegalStateException e) { // the memory faulted (MemoryFault): never reused
            if (pool != null) {
                pool.drop(memory);
            } else {
                memory.unmap();
            }
            return;
        }
        if (pool != null) {
            pool.release(memory, peerVanished);
            return;
        }
        memory.unmap();
        if (peerVanished && direction == 0) {
            memory.unlinkIfCreatorEnded(); // a killed requester's file, which its pool may have kept at its path
        }
    }
}
