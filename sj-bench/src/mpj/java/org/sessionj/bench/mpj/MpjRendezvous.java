package org.sessionj.bench.mpj;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The port exchange MPJ Express 0.44's {@code mpjrun} performs for the niodev device, without its
 * daemons, so that niodev ranks can be started as plain processes (or by srun): every rank binds two
 * ports, connects here and sends {@code "Sending Info"}, its write port, its read port and its rank
 * (writeUTF, writeInt ×3); once all have arrived each receives the table
 * {@code "#Peer Information;HOST@READ@WRITE@RANK@DEBUG;…"} in rank order, HOST being the address the
 * rank connected from (so ranks in another network namespace are named by their veth address).
 * A rank is started as {@code java … Main RANK "#Number of Processes;N;#Protocol Switch Limit;131072;
 * #Server Name;ADDR;#Server Port;PORT" niodev ARGS…}, which is what MPJ's daemon passes to main.
 *
 * <p>Args: bind address, number of ranks, file to write the bound port to, seconds to wait for all
 * ranks. Prints the table (rank → host) on stdout; exits 1 with a one-line error when ranks are missing,
 * duplicated or out of range.
 */
public final class MpjRendezvous {
    /** MPJRun's default debug port; niodev parses but does not use it unless debugging. */
    private static final int DEBUG_PORT = 24500;

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            fail("expected: BIND-ADDRESS RANKS PORT-FILE TIMEOUT-SECONDS but found " + args.length + " arguments");
        }
        int n = Integer.parseInt(args[1]);
        Path portFile = Path.of(args[2]);
        int timeoutMs = Integer.parseInt(args[3]) * 1000;
        String[] entries = new String[n];
        Socket[] peers = new Socket[n];
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(args[0]), 0), n);
            Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
            Files.writeString(tmp, server.getLocalPort() + "\n");
            Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE);
            long deadline = System.currentTimeMillis() + timeoutMs;
            for (int arrived = 0; arrived < n; arrived++) {
                server.setSoTimeout((int) Math.max(1, deadline - System.currentTimeMillis()));
                Socket s;
                try {
                    s = server.accept();
                } catch (SocketTimeoutException e) {
                    fail("only " + arrived + " of " + n + " ranks connected within " + args[3] + " s");
                    return;
                }
                s.setSoTimeout(timeoutMs);
                DataInputStream in = new DataInputStream(s.getInputStream());
                String hello = in.readUTF();
                if (!hello.startsWith("Sending Info")) {
                    fail("expected 'Sending Info' from " + s.getInetAddress().getHostAddress() + " but found '" + hello + "'");
                }
                int writePort = in.readInt();
                int readPort = in.readInt();
                int rank = in.readInt();
                if (rank < 0 || rank >= n || peers[rank] != null) {
                    fail("expected a new rank in 0.." + (n - 1) + " but found " + rank);
                }
                peers[rank] = s;
                entries[rank] = s.getInetAddress().getHostAddress() + "@" + readPort + "@" + writePort + "@" + rank + "@" + DEBUG_PORT;
            }
            StringBuilder table = new StringBuilder("#Peer Information");
            for (String e : entries) {
                table.append(';').append(e);
            }
            String info = table.toString();
            for (int r = 0; r < n; r++) {
                System.out.println("rank " + r + " " + entries[r].substring(0, entries[r].indexOf('@')));
            }
            System.out.flush();
            for (Socket s : peers) {
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeUTF(info);
                out.flush();
                s.close();
            }
        }
    }

    private static void fail(String message) {
        System.err.println("mpj-rendezvous: " + message);
        System.exit(1);
    }
}
