package org.sessionj.transport.ipc;

import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An ipc session port: a Unix domain socket at {@code <dir>/<port>.sock}, owned while this acceptor
 * holds the lock of {@code <dir>/<port>.lock}. The lock dies with its process, so a socket file
 * left by a dead process is found stale by the next owner of the lock and replaced. A virtual
 * thread accepts sockets, and one per new socket runs the set-up exchange.
 */
final class IpcAcceptor implements org.sessionj.runtime.spi.ConnectionAcceptor {
    private static final System.Logger LOG = System.getLogger(IpcAcceptor.class.getName());
    private static final long SETUP_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final int port;
    private final Path socketFile;
    private final Path lockPath;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final ServerSocketChannel server;
    private final IpcSettings settings;
    private final ByteBufAllocator alloc;
    private final LinkedBlockingQueue<Object> accepted = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    private IpcAcceptor(int port, Path socketFile, Path lockPath, FileChannel lockFile, FileLock lock,
            ServerSocketChannel server,
            IpcSettings settings, ByteBufAllocator alloc) {
        this.port = port;
        this.socketFile = socketFile;
        this.lockPath = lockPath;
        this.lockFile = lockFile;
        this.lock = lock;
        this.server = server;
        this.settings = settings;
        this.alloc = alloc;
        Thread.ofVirtual().name("sj-ipc-accept-" + port).start(this::acceptLoop);
    }

    /**
     * Listens on {@code port}, or returns null if another acceptor (of any process) holds it.
     *
     * @throws IOException if the directory or socket cannot be made
     */
    static IpcAcceptor tryBind(int port, IpcSettings settings, ByteBufAllocator alloc) throws IOException {
        Path dir = IpcTransport.directory(settings);
        StaleFiles.sweepOnce(dir); // killed processes' sockets and locks go before this JVM's first port
        MemoryPool.sweepOnce(settings.memoryDirectory().toAbsolutePath().normalize()); // and their memory files, also from a JVM that only accepts
        Path lockPath = dir.resolve(port + ".lock");
        if (!StaleFiles.reserve(lockPath)) {
            return null; // an acceptor of this JVM holds it (opening the file again would drop its lock)
        }
        IpcAcceptor bound = null;
        try {
            bound = bind(port, settings, alloc, lockPath);
            return bound;
        } finally {
            if (bound == null) {
                StaleFiles.unreserve(lockPath);
            }
        }
    }

    /** {@link #tryBind} once {@code lockPath} is reserved for this call. */
    private static IpcAcceptor bind(int port, IpcSettings settings, ByteBufAllocator alloc, Path lockPath)
            throws IOException {
        Object before = fileKey(lockPath);
        FileChannel lockFile = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        if (before == null) {
            before = fileKey(lockPath); // we created it (or a contender did just now: the check below decides)
        }
        FileLock lock;
        try {
            lock = lockFile.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held in this JVM (not through the reservations: cannot happen, but never steal it)
        } catch (IOException | RuntimeException e) {
            lockFile.close();
            throw e;
        }
        // An owner deletes its lock file when it closes (so they do not pile up); whoever locked the
        // file just before it went holds a lock on nothing. The port is ours only if the file we
        // locked is still the one at the path: the path named the same file (device and inode) before
        // we opened it and after we locked it. (Not by reading the file through the path: that would
        // open and close it, which drops this process's lock.)
        if (lock != null && (before == null || !before.equals(fileKey(lockPath)))) {
            lock.release();
            lock = null;
        }
        if (lock == null) {
            lockFile.close();
            return null;
        }
        Path socketFile = IpcTransport.socketFile(settings, port);
        ServerSocketChannel server = null;
        try {
            Files.deleteIfExists(socketFile); // we hold the port: any socket there is a dead process's
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socketFile));
            return new IpcAcceptor(port, socketFile, lockPath, lockFile, lock, server, settings, alloc);
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            lockFile.close();
            throw e;
        }
    }

    /**
     * The identity (device and inode) of the file at {@code path}, or null if there is none. Read
     * with {@code stat}, never by opening the file: closing any descriptor of this process to a
     * lock file drops the process's lock on it.
     */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    accepted.add(new IOException("ipc acceptor on port " + port + " failed: " + e.getMessage(), e));
                }
                return;
            }
            Thread.ofVirtual().name("sj-ipc-setup-" + port).start(() -> setUp(socket));
        }
    }

    private void setUp(SocketChannel socket) {
        try {
            Path file = Handshake.readOpen(socket, System.nanoTime() + SETUP_NANOS);
            IpcMemory memory;
            try {
                memory = IpcMemory.map(file, Integer.highestOneBit(Integer.MAX_VALUE));
            } catch (IOException e) {
                Handshake.answer(socket, e.getMessage());
                throw e;
            }
            IpcConnection connection;
            try {
                Handshake.answer(socket, null); // while the socket still blocks: the connection makes it non-blocking
                connection = new IpcConnection(socket, memory, 0, alloc, settings, null);
            } catch (IOException | RuntimeException e) {
                memory.unmap(); // no connection owns it
                throw e;
            }
            accepted.add(connection);
            if (closed && accepted.remove(connection)) {
                connection.close();
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "ipc connection set-up on port {0} failed: {1}", String.valueOf(port), e.getMessage());
            try {
                socket.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public org.sessionj.runtime.spi.Connection accept(long timeoutNanos) throws IOException {
        if (closed) {
            throw new IOException("ipc acceptor on session port " + port + " is closed");
        }
        Object next;
        try {
            next = timeoutNanos < 0 ? accepted.take() : accepted.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while accepting on ipc port " + port);
        }
        if (next instanceof IOException failure) {
            accepted.add(failure); // every waiting and later accept fails the same way
            throw new IOException(failure.getMessage(), failure);
        }
        return (IpcConnection) next;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Files.deleteIfExists(socketFile); // before the lock goes: a new owner may bind at once
            server.close();
            Files.deleteIfExists(lockPath);   // still locked: a contender finds its file gone and retries
            lock.release();
            lockFile.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing ipc acceptor on port {0}: {1}", port, e.getMessage());
        } finally {
            StaleFiles.unreserve(lockPath);
        }
        Object unaccepted;
        while ((unaccepted = accepted.poll()) != null) {
            if (unaccepted instanceof IpcConnection connection) {
                connection.close();
            }
        }
        accepted.add(new IOException("ipc acceptor on session port " + port + " is closed"));
    }
}
