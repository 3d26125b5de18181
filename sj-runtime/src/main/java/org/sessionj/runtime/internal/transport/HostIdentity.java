package org.sessionj.runtime.internal.transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who this process can share memory with, as the negotiation's HELLO says it: two runtimes with the
 * same non-empty identity run on one host, in one network and one mount namespace, as one user, so
 * a same-host transport (cross-process shared memory over a Unix socket in a per-user directory)
 * reaches from one to the other. Built on Linux from the kernel's boot id and the inodes of this
 * process's network and mount namespaces; elsewhere (or when {@code /proc} is unreadable) it is
 * empty, "unknown", which never counts as the same host.
 *
 * <p>Two network namespaces count as two hosts (the project's two-node cluster runs one node per
 * namespace on one machine, and those must stay on TCP). The mount namespace and the user are part
 * of it because the transport's socket and shared files live in the file system under a per-user
 * directory: a container with its own {@code /tmp}, or another user, could not reach them.
 */
public final class HostIdentity {
    private static final String LOCAL = compute();

    private HostIdentity() {
    }

    /** This process's identity; empty when unknown. */
    public static String local() {
        return LOCAL;
    }

    /** Whether a peer with identity {@code peer} (from its HELLO) is on this host; unknown never is. */
    public static boolean isLocal(String peer) {
        return !LOCAL.isEmpty() && LOCAL.equals(peer);
    }

    private static String compute() {
        try {
            Path boot = Path.of("/proc/sys/kernel/random/boot_id");
            if (!Files.isReadable(boot)) {
                return "";
            }
            String bootId = Files.readString(boot, StandardCharsets.US_ASCII).strip();
            String net = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
            String mnt = Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")).toString();
            String user = System.getProperty("user.name", "");
            if (bootId.isEmpty() || user.isEmpty()) {
                return "";
            }
            return "linux:" + bootId + ";" + net + ";" + mnt + ";" + user;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "";
        }
    }
}
