package org.sessionj.transport.netty.internal;

import java.io.IOException;
import java.net.InetSocketAddress;

/** The checks both TCP paths (event loops and blocking sockets) make on a port and host before using them. */
final class TcpAddresses {
    private TcpAddresses() {
    }

    /**
     * Where to listen for TCP port {@code port} (0: any free port): the address {@code sessionj.bindAddress}
     * names, by default every interface.
     *
     * @throws IOException if the port is out of range or the bind address is not usable
     */
    static InetSocketAddress listening(int port, String transportName) throws IOException {
        if (port < 0 || port > 65535) {
            throw new IOException("session port " + port + " is not a TCP port (expected 0..65535)");
        }
        try {
            return org.sessionj.runtime.spi.support.BindAddress.forPort(port);
        } catch (IllegalArgumentException e) {
            throw new IOException("cannot listen on TCP port " + port + " (" + transportName + "): " + e.getMessage(), e);
        }
    }

    /**
     * The resolved address of {@code host:port} to connect to.
     *
     * @throws IOException if the port is out of range or the host unknown
     */
    static InetSocketAddress connecting(String host, int port, String transportName) throws IOException {
        if (port < 1 || port > 65535) {
            throw new IOException("session port " + port + " is not a TCP port (expected 1..65535)");
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IOException("cannot connect to " + host + ":" + port + " (" + transportName + "): unknown host");
        }
        return address;
    }

    /** A connect timeout in milliseconds for {@code timeoutNanos} (negative: 30 s), at least 1. */
    static int connectMillis(long timeoutNanos) {
        return timeoutNanos < 0 ? 30_000
                : (int) Math.max(1, Math.min(Integer.MAX_VALUE, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
    }
}
