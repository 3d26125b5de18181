package org.sessionj.transport.shm;

import com.google.auto.service.AutoService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;

/**
 * The in-JVM transport ({@code "shm"}): peers in one JVM talk through a pair of lock-free SPSC
 * queues, and {@code pass} hands over references. It reaches a port only when an acceptor for it is
 * open in this JVM and the host names this machine.
 */
@AutoService(Transport.class)
public final class ShmTransport implements Transport {
    /** The configuration name of this transport. */
    public static final String NAME = "shm";

    private static final ShmPortRegistry PORTS = new ShmPortRegistry();
    private static final ConcurrentHashMap<String, Boolean> LOCAL_HOSTS = new ConcurrentHashMap<>();

    /** Creates the transport (the port table is JVM-wide, shared by every instance). */
    public ShmTransport() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Only peers in this JVM share the port table. */
    @Override
    public boolean inJvmOnly() {
        return true;
    }

    @Override
    public ConnectionAcceptor listen(int port) throws IOException {
        return PORTS.bind(port);
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        if (!isLocal(host)) {
            throw new IOException("the in-JVM transport cannot reach host " + host);
        }
        ShmAcceptor acceptor = PORTS.lookup(port);
        if (acceptor == null) {
            throw new IOException("connection refused: no in-JVM acceptor on session port " + port);
        }
        ShmConnection[] ends = ShmConnection.pair(null);
        if (acceptor.takesInline()) {
            if (acceptor.isClosed()) {
                throw new IOException("connection refused: the in-JVM acceptor on session port " + port + " is closed");
            }
            // Handed over when the requester has written its first frame (its HELLO or request), so that
            // the accepting side's handshake runs on this thread and finds that frame there.
            ends[0].onFirstWrite(() -> acceptor.handOver(ends[1]));
        } else {
            acceptor.enqueue(ends[1]);
        }
        return ends[0];
    }

    @Override
    public boolean canReach(String host, int port) {
        return PORTS.lookup(port) != null && isLocal(host);
    }

    /** Whether {@code host} names this machine (resolved once per name); the ipc transport asks it too. */
    public static boolean isLocal(String host) {
        Boolean known = LOCAL_HOSTS.get(host); // the name as given, seen before: no lower-casing per session
        if (known != null) {
            return known;
        }
        return LOCAL_HOSTS.computeIfAbsent(host.toLowerCase(java.util.Locale.ROOT), ShmTransport::resolveLocal);
    }

    private static boolean resolveLocal(String host) {
        if (host.isEmpty() || host.equals("localhost")) {
            return true;
        }
        try {
            InetAddress address = InetAddress.getByName(host);
            return address.isLoopbackAddress() || address.isAnyLocalAddress()
                    || NetworkInterface.getByInetAddress(address) != null;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }
}
