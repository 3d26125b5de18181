package org.sessionj.examples.chat;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * Where an invitation to a private conversation may make the invited client connect (hostile18 H9: an
 * inviter named any host:port, the invited client's own {@code 127.0.0.1} too, and the client connected
 * there at once, sending its SJ HELLO). The rule is the one a delegated session's new owner follows to
 * reconnect (docs/delegation.md, "Where a new owner reconnects"), and the same setting widens it:
 * {@code sessionj.delegation.reconnectHosts} (host names or addresses, comma-separated, or {@code *}).
 *
 * <ul>
 *   <li>The server passes an invitation on only when its host is the address the inviting client's
 *       connection comes from, or, for an inviter on the server's own host, a host of the server's; never
 *       a loopback address to a client on another host (it would connect to itself).</li>
 *   <li>The invited client follows it only to a host that is not its own (loopback, or an address of its
 *       interfaces) unless the server is on its host too: whatever a server passes on, an inviter does not
 *       make it connect to services only it can reach.</li>
 * </ul>
 */
final class InvitationHosts {
    private InvitationHosts() {
    }

    /**
     * Why the server does not pass on an invitation whose service names {@code host}, from an inviter whose
     * connection comes from {@code inviter}, to a client at {@code invited} (either null: its transport does
     * not say); null when it may.
     */
    static String serverRefusal(String host, InetAddress inviter, InetAddress invited) {
        if (inviter == null || allowedExtra(host)) {
            return null; // nothing to compare with (in-JVM, http): the invited client's own rule applies
        }
        InetAddress[] named = resolve(host);
        if (named == null) {
            return "its host " + host + " does not resolve";
        }
        for (InetAddress address : named) {
            if (address.isLoopbackAddress() && invited != null && !isThisHost(invited)) {
                return "it names " + host + ", which would be the invited user's own computer";
            }
        }
        for (InetAddress address : named) {
            if (address.equals(inviter)) {
                return null;
            }
        }
        if (isThisHost(inviter)) {
            boolean allHere = true;
            for (InetAddress address : named) {
                allHere &= isThisHost(address);
            }
            if (allHere) {
                return null;
            }
        }
        return "it names " + host + ", which is not the address you are connected from (" + inviter.getHostAddress() + ")";
    }

    /**
     * Why the invited client does not follow an invitation to {@code host} while its server is at
     * {@code serverHost}; null when it may.
     */
    static String clientRefusal(String host, String serverHost) {
        if (allowedExtra(host)) {
            return null;
        }
        InetAddress[] named = resolve(host);
        if (named == null) {
            return host + " does not resolve";
        }
        boolean mine = false;
        for (InetAddress address : named) {
            mine |= isThisHost(address);
        }
        if (!mine) {
            return null;
        }
        InetAddress[] server = resolve(serverHost);
        boolean serverHere = server != null;
        for (int i = 0; server != null && i < server.length; i++) {
            serverHere &= isThisHost(server[i]);
        }
        return serverHere ? null : host + " is this computer, and the chat server is not on it (sessionj."
                + "delegation.reconnectHosts lists hosts to allow)";
    }

    /** Whether {@code sessionj.delegation.reconnectHosts} names {@code host}, or is {@code *}. */
    private static boolean allowedExtra(String host) {
        List<String> extra = SystemSettings.system().value("delegation.reconnectHosts")
                .map(v -> Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                        .map(s -> s.toLowerCase(Locale.ROOT)).toList())
                .orElse(List.of());
        return extra.contains("*") || extra.contains(host.toLowerCase(Locale.ROOT));
    }

    private static InetAddress[] resolve(String host) {
        try {
            return InetAddress.getAllByName(host);
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
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
