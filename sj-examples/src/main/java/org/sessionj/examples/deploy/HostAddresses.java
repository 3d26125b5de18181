package org.sessionj.examples.deploy;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;

/** Which of this node's addresses other nodes can reach. */
public final class HostAddresses {

    private HostAddresses() {
    }

    /**
     * The address of this node's interface that traffic to {@code peer} leaves from (the kernel's
     * route choice, found with an unconnected-in-practice UDP socket: connecting a datagram socket
     * sends nothing). Under Slurm that is the node's address on the cluster network; when
     * {@code peer} is this node, it is {@code peer} itself or loopback.
     */
    public static String towards(String peer) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(InetAddress.getByName(peer), 9);
            InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                throw new DeploymentException("cannot tell which address of this node reaches " + peer
                        + ": expected a routed interface but found none; pass --host ADDRESS");
            }
            return local.getHostAddress();
        } catch (IOException e) {
            throw new DeploymentException("cannot tell which address of this node reaches " + peer + ": "
                    + e.getMessage() + "; pass --host ADDRESS");
        }
    }

    /** Whether {@code host} names an address of this node (loopback included). */
    public static boolean isLocal(String host) {
        try {
            InetAddress address = InetAddress.getByName(host);
            return address.isLoopbackAddress() || address.isAnyLocalAddress()
                    || NetworkInterface.getByInetAddress(address) != null;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }
}
