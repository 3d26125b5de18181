package org.sessionj.runtime.internal.session;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * Where a new owner may reconnect a delegated session (hostile17 H8). The SESSION item names the host and
 * port of the passive peer's resumption endpoint, and the receiving runtime connects there by itself, in
 * its program's {@code receive()}: a hostile delegator could make it connect anywhere (internal hosts,
 * other ports) and learn from the failures and their timing. By default every address of the host must be the
 * address the delegating peer's connection comes from, or this host when that peer is on this host too (or its
 * transport does not say where it is: in-JVM, {@code ipc}, {@code http}); {@code sessionj.delegation.reconnectHosts}
 * names more hosts (host names or addresses, comma-separated) or {@code *} for any, as before the
 * eighteenth session (three hosts: a portal that delegates a remote client's session to an application
 * server on a third host needs it).
 */
final class ReconnectTargets {
    /** The setting's name (read as a literal below, so that ConfigurationDocTest finds it). */
    static final String SETTING = "delegation.reconnectHosts";

    private ReconnectTargets() {
    }

    /**
     * Why a delegated session from a peer at {@code peer} (null: its transport does not say) may not be resumed
     * at {@code host}, or null when it may; read with {@code settings}.
     */
    static String refusal(String host, InetAddress peer, SystemSettings settings) {
        return refusal(host, peer, settings, InetAddress::getAllByName);
    }

    /** Looks a host up: {@link InetAddress#getAllByName} outside tests. */
    @FunctionalInterface
    interface Resolver {
        /** Every address of {@code host}. */
        InetAddress[] addresses(String host) throws UnknownHostException;
    }

    /**
     * {@link #refusal(String, InetAddress, SystemSettings)} with {@code resolver} for the host's addresses. Every
     * address of the name must be allowed, not one of them (hostile22 H22-1): the reconnection resolves the name
     * again and connects to its first address, so a delegator that answers for a name with [an address only this
     * host can reach, its own address] passed the check with its own and sent this runtime to the other.
     */
    static String refusal(String host, InetAddress peer, SystemSettings settings, Resolver resolver) {
        List<String> extra = settings.value("delegation.reconnectHosts").map(v -> Arrays.stream(v.split(","))
                .map(String::strip).filter(s -> !s.isEmpty()).map(s -> s.toLowerCase(Locale.ROOT)).toList())
                .orElse(List.of());
        if (extra.contains("*") || extra.contains(host.toLowerCase(Locale.ROOT))) {
            return null;
        }
        InetAddress[] named;
        try {
            named = resolver.addresses(host);
        } catch (UnknownHostException | SecurityException e) {
            return "the delegating peer named a host that does not resolve (" + why(peer) + ")";
        }
        boolean peerHere = peer == null || isThisHost(peer);
        for (InetAddress address : named) {
            if (!address.equals(peer) && !(peerHere && isThisHost(address))) {
                return named.length == 1 ? "it is not the address the delegating peer is connected from (" + why(peer) + ")"
                        : "one of its addresses, " + address.getHostAddress() + ", is not the address the delegating peer"
                                + " is connected from, and the reconnection may go to any of them (" + why(peer) + ")";
            }
        }
        return named.length == 0 ? "the delegating peer named a host that does not resolve (" + why(peer) + ")" : null;
    }

    private static String why(InetAddress peer) {
        return (peer == null ? "the delegating peer's transport does not say where it is, so only this host is allowed"
                : "the delegating peer is at " + peer.getHostAddress()) + "; set sessionj." + SETTING
                + " to the hosts a delegated session may be resumed at, or * for any (docs/delegation.md)";
    }

    /** Whether {@code address} is one of this host's (loopback, the wildcard, or an interface's). */
    static boolean isThisHost(InetAddress address) {
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
