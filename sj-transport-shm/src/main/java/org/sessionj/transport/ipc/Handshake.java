package org.sessionj.transport.ipc;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The set-up exchange on a fresh Unix socket (docs/ipc-transport.md): the requester names the file
 * of the shared memory it created, the accepter maps it and says whether it could.
 *
 * <pre>
 * OPEN   := magic:int32 ('SJIP') · version:int8 (1) · path-length:uint16 · path:UTF-8
 * MAPPED := 1
 * FAILED := 0 · reason-length:uint16 · reason:UTF-8
 * </pre>
 */
final class Handshake {
    static final byte MAPPED = 1;
    static final byte FAILED = 0;

    private Handshake() {
    }

    /** Sends OPEN for {@code file}. */
    static void sendOpen(SocketChannel socket, Path file) throws IOException {
        byte[] path = file.toString().getBytes(StandardCharsets.UTF_8);
        ByteBuffer open = ByteBuffer.allocate(7 + path.length);
        open.putInt(IpcMemory.MAGIC).put((byte) IpcMemory.VERSION).putShort((short) path.length).put(path).flip();
        writeFully(socket, open);
    }

    /** Reads OPEN and returns the file it names. */
    static Path readOpen(SocketChannel socket, long deadline) throws IOException {
        ByteBuffer head = readFully(socket, 7, deadline);
        int magic = head.getInt();
        int version = head.get();
        if (magic != IpcMemory.MAGIC || version != IpcMemory.VERSION) {
            throw new IOException(String.format("not an SJ ipc connection request: magic 0x%08X version %d, expected"
                    + " 0x%08X version %d", magic, version, IpcMemory.MAGIC, IpcMemory.VERSION));
        }
        int length = Short.toUnsignedInt(head.getShort());
        String path = StandardCharsets.UTF_8.decode(readFully(socket, length, deadline)).toString();
        try {
            return Path.of(path);
        } catch (java.nio.file.InvalidPathException e) {
            throw new IOException("not an SJ ipc connection request: the memory file " + e.getMessage());
        }
    }

    /** Answers MAPPED, or FAILED with {@code reason} when not null. */
    static void answer(SocketChannel socket, String reason) throws IOException {
        if (reason == null) {
            writeFully(socket, ByteBuffer.wrap(new byte[] {MAPPED}));
            return;
        }
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, 0xFFFF);
        ByteBuffer failed = ByteBuffer.allocate(3 + length);
        failed.put(FAILED).putShort((short) length).put(text, 0, length).flip();
        writeFully(socket, failed);
    }

    /** Reads the answer to OPEN. @throws IOException with the accepter's reason if it failed */
    static void readAnswer(SocketChannel socket, long deadline) throws IOException {
        byte status = readFully(socket, 1, deadline).get();
        if (status == MAPPED) {
            return;
        }
        if (status != FAILED) {
            throw new IOException("bad answer " + status + " from the ipc acceptor, expected 0 or 1");
        }
        int length = Short.toUnsignedInt(readFully(socket, 2, deadline).getShort());
        throw new IOException("the ipc acceptor refused the connection: "
                + StandardCharsets.UTF_8.decode(readFully(socket, length, deadline)));
    }

    private static void writeFully(SocketChannel socket, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            socket.write(buffer);
        }
    }

    /**
     * Reads exactly {@code length} bytes (never more: the doorbell bytes come right behind) by
     * {@code deadline} ({@link System#nanoTime()}; {@link Long#MAX_VALUE}: none), from a socket in
     * blocking mode. Blocking reads, because a selector per read cost more than the rest of the
     * exchange; a timer closes the socket at the deadline, which ends a read that still waits.
     */
    private static ByteBuffer readFully(SocketChannel socket, int length, long deadline) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        // Whoever sets it first wins: the read (then the timer must not close) or the timer (then the read failed).
        java.util.concurrent.atomic.AtomicBoolean settled = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.ScheduledFuture<?> timer = null;
        if (deadline != Long.MAX_VALUE) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new SocketTimeoutException("timed out setting up an ipc connection");
            }
            timer = Timeouts.TIMER.schedule(() -> {
                if (settled.compareAndSet(false, true)) {
                    closeQuietly(socket);
                }
            }, remaining, TimeUnit.NANOSECONDS);
        }
        try {
            while (buffer.hasRemaining()) {
                if (socket.read(buffer) < 0) {
                    throw new IOException("the ipc peer closed the socket during the connection set-up");
                }
            }
        } catch (java.nio.channels.AsynchronousCloseException e) {
            if (timer != null && !settled.compareAndSet(false, true)) {
                throw new SocketTimeoutException("timed out setting up an ipc connection");
            }
            throw e;
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
        }
        if (timer != null && !settled.compareAndSet(false, true)) {
            throw new SocketTimeoutException("timed out setting up an ipc connection"); // and the timer closed it
        }
        return buffer.flip();
    }

    private static void closeQuietly(SocketChannel socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing to end a read that waited too long: nothing more to do
        }
    }

    /** The one timer thread of the set-up deadlines, started with the first timed read. */
    private static final class Timeouts {
        static final java.util.concurrent.ScheduledThreadPoolExecutor TIMER = timer();

        private static java.util.concurrent.ScheduledThreadPoolExecutor timer() {
            java.util.concurrent.ScheduledThreadPoolExecutor timer = new java.util.concurrent.ScheduledThreadPoolExecutor(1,
                    r -> Thread.ofPlatform().daemon().name("sj-ipc-setup-timeouts").unstarted(r));
            timer.setRemoveOnCancelPolicy(true); // a cancelled deadline goes at once, not after 10 s
            return timer;
        }
    }
}
