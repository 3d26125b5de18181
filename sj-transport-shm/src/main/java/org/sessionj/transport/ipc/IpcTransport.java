package org.sessionj.transport.ipc;

import com.google.auto.service.AutoService;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ThreadLocalRandom;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.transport.shm.ShmTransport;

/**
 * The cross-process shared-memory transport ({@code "ipc"}) for peers in two JVMs on one host:
 * frames travel through rings in memory both processes map, and a Unix domain socket sets the
 * connection up and then serves as its doorbell (docs/ipc-transport.md). A session transport only:
 * requesters reach a server over a setup transport (TCP), and negotiation moves the session here
 * when both sides run on the same host (same kernel boot, network and mount namespace, user); later
 * sessions with the same server come straight here and negotiate on the ipc connection itself.
 */
@AutoService(Transport.class)
public final class IpcTransport implements Transport {
    /** The configuration name of this transport. */
    public static final String NAME = "ipc";
    private static final int FIRST_EPHEMERAL = 49152;
    private static final int LAST_PORT = 65535;

    private final IpcSettings settings;

    /** The transport with the settings of the system properties. */
    public IpcTransport() {
        this(IpcSettings.fromSystemProperties());
    }

    IpcTransport(IpcSettings settings) {
        this.settings = settings;
    }

    /**
     * Netty's default allocator, looked up when an ipc connection or acceptor is made, not when the
     * transport is: every runtime creates every transport it finds, and the first touch of
     * {@code ByteBufAllocator} initialises Netty's pooled allocator (some 60 classes), which a program
     * whose sessions are all in-JVM never needs.
     */
    private static ByteBufAllocator alloc() {
        return ByteBufAllocator.DEFAULT;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean sameHostOnly() {
        return true;
    }

    @Override
    public boolean servesSetup() {
        return false;
    }

    @Override
    public ConnectionAcceptor listen(int port) throws IOException {
        if (port < 0 || port > LAST_PORT) {
            throw new IOException("ipc port must be in 0..65535, got " + port);
        }
        if (port != 0) {
            IpcAcceptor acceptor = IpcAcceptor.tryBind(port, settings, alloc());
            if (acceptor == null) {
                throw new java.net.BindException("ipc port " + port + " is already in use (" + socketFile(settings, port) + ")");
            }
            return acceptor;
        }
        int span = LAST_PORT - FIRST_EPHEMERAL + 1;
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span; i++) {
            IpcAcceptor acceptor = IpcAcceptor.tryBind(FIRST_EPHEMERAL + (start + i) % span, settings, alloc());
            if (acceptor != null) {
                return acceptor;
            }
        }
        throw new IOException("no free ipc port in " + FIRST_EPHEMERAL + ".." + LAST_PORT + " in " + directory(settings));
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        if (!ShmTransport.isLocal(host)) {
            throw new IOException("the ipc transport reaches only this host, not " + host);
        }
        long deadline = timeoutNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        Path socketFile = socketFile(settings, port);
        SocketChannel socket = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            try {
                socket.connect(UnixDomainSocketAddress.of(socketFile));
            } catch (IOException e) {
                throw new IOException("connection refused: no ipc acceptor on port " + port + " (" + socketFile + "): "
                        + e.getMessage(), e);
            }
            MemoryPool pool = MemoryPool.of(settings);
            IpcMemory memory = pool.take();
            try {
                Handshake.sendOpen(socket, memory.file());
                Handshake.readAnswer(socket, deadline);
                if (!pool.enabled()) {
                    pool.unlink(memory); // both have mapped it: the file is of no more use
                }
                return new IpcConnection(socket, memory, 1, alloc(), settings, pool.enabled() ? pool : null);
            } catch (IOException | RuntimeException e) {
                pool.drop(memory);
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    @Override
    public boolean canReach(String host, int port) {
        return ShmTransport.isLocal(host) && Files.exists(socketFile(settings, port));
    }

    /**
     * The directory of the acceptors' sockets, created private to this user if missing. An existing
     * one must belong to this user and be closed to others: whoever can enter it can connect to the
     * acceptors (and could have put a socket of their own there).
     */
    static Path directory(IpcSettings settings) throws IOException {
        Path dir = settings.socketDirectory();
        if (!Files.isDirectory(dir)) {
            try {
                Files.createDirectories(dir,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // made by another process meanwhile
            }
        }
        checkPrivate(dir);
        return dir;
    }

    private static void checkPrivate(Path dir) throws IOException {
        if (!dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        String user = System.getProperty("user.name");
        // A symbolic link is as good as its owner (hostile22 H22-2): a link that another user made in /tmp to a
        // private directory of this user passed the checks below, which follow it, and its owner could point it
        // elsewhere once this user's acceptors were bound behind it.
        if (Files.isSymbolicLink(dir)) {
            String linkOwner = Files.getOwner(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName();
            if (!linkOwner.equals(user)) {
                throw new IOException("the ipc socket directory " + dir + " is a symbolic link made by " + linkOwner
                        + ", not by " + user + "; remove it or set sessionj.ipc.dir");
            }
        }
        String owner = Files.getOwner(dir).getName();
        java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions = Files.getPosixFilePermissions(dir);
        boolean open = permissions.stream().anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"));
        if (!owner.equals(user) || open) {
            throw new IOException("the ipc socket directory " + dir + " must belong to " + user + " and be closed to"
                    + " others (rwx------), but it belongs to " + owner + " with "
                    + PosixFilePermissions.toString(permissions) + "; remove it or set sessionj.ipc.dir");
        }
    }

    static Path socketFile(IpcSettings settings, int port) {
        return settings.socketDirectory().resolve(port + ".sock");
    }
}
