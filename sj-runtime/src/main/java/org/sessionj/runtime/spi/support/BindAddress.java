package org.sessionj.runtime.spi.support;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * The local address network transports listen on: setting {@code sessionj.bindAddress} (a host name or
 * IP address of this host), or every interface when it is not set.
 *
 * <p>Every interface stays the default: a server's session transports are found by negotiation and
 * reached by requesters on other hosts, and a default of loopback would make every deployment that
 * forgets the setting fail to connect in a way that looks like a firewall. A server that should be
 * reachable only locally (or only on one network) sets it.
 */
public final class BindAddress {
    private BindAddress() {
    }

    /** The socket address to listen on for TCP port {@code port} under this JVM's settings. */
    public static InetSocketAddress forPort(int port) {
        return forPort(SystemSettings.system(), port);
    }

    /**
     * The socket address to listen on for TCP port {@code port} under {@code settings}.
     *
     * @throws IllegalArgumentException if {@code sessionj.bindAddress} names no address
     */
    public static InetSocketAddress forPort(SystemSettings settings, int port) {
        Optional<String> host = settings.value("bindAddress");
        if (host.isEmpty()) {
            return new InetSocketAddress(port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host.get()), port);
        } catch (UnknownHostException e) {
            throw SystemSettings.invalid("bindAddress", "a host name or IP address of this host", host.get());
        }
    }
}
