package org.sessionj.transport.netty.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Answers {@code canReach} for TCP ports without connecting (a probe connection would show up in
 * the acceptor's queue): ports this JVM listens on are reachable; on another host any port may be;
 * on this host a port is reachable when something listens on it, which a trial bind tells.
 */
public final class LocalPorts {
    private static final Set<Integer> LISTENING = ConcurrentHashMap.newKeySet();

    private LocalPorts() {
    }

    static void listening(int port) {
        LISTENING.add(port);
    }

    static void released(int port) {
        LISTENING.remove(port);
    }

    /** Whether a TCP connection to {@code host:port} could succeed, as far as can be told cheaply. */
    public static boolean canReach(String host, int port) {
        if (port < 1 || port > 65535) {
            return false;
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return false;
        }
        if (!isLocal(address)) {
            return true;
        }
        if (LISTENING.contains(port)) {
            return true;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(port));
            return false; // nobody listens there
        } catch (IOException e) {
            return true; // taken: someone listens
        }
    }

    private static boolean isLocal(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }
}
