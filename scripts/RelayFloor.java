import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The floor any relay process sets on one host (issue 17): plain blocking {@code Socket}s, no framing
 * beyond a 4-byte int, no session. Run by scripts/relay-floor.sh, as a single-file program
 * ({@code java scripts/RelayFloor.java ...}), in three roles, each its own process as a deployment has:
 *
 * <ul>
 *   <li>{@code server HOST PORTFILE}: an echo server (reads an int, writes it plus one), a thread per connection;
 *   <li>{@code forward HOST PORTFILE TARGETHOST TARGETPORT}: the least a user could put in the middle: for each
 *       accepted connection one outbound connection and two threads copying bytes as they arrive;
 *   <li>{@code client SECONDS ROUNDS NAME=HOST:PORT...}: one connection per path, the paths alternating round by
 *       round (so each sees the same load; the first round is warm-up), int round trips; prints p50, mean and
 *       p90 in µs per path and each path's ratio to the first.
 * </ul>
 */
public final class RelayFloor {
    private RelayFloor() {
    }

    /** Dispatches on the role named by the first argument. */
    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "server" -> server(args[1], Path.of(args[2]));
            case "forward" -> forward(args[1], Path.of(args[2]), args[3], Integer.parseInt(args[4]));
            case "client" -> client(Long.parseLong(args[1]), Integer.parseInt(args[2]),
                    Arrays.copyOfRange(args, 3, args.length));
            default -> throw new IllegalArgumentException("role: expected server, forward or client, found " + args[0]);
        }
    }

    private static ServerSocket listen(String host, Path portFile) throws IOException {
        ServerSocket listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
        Path tmp = Path.of(portFile + ".tmp");
        Files.writeString(tmp, Integer.toString(listener.getLocalPort()));
        Files.move(tmp, portFile); // the script waits for the file: written whole or not at all
        return listener;
    }

    private static void server(String host, Path portFile) throws IOException {
        try (ServerSocket listener = listen(host, portFile)) {
            while (true) {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                Thread.ofPlatform().start(() -> {
                    try (s; DataInputStream in = new DataInputStream(s.getInputStream());
                         DataOutputStream out = new DataOutputStream(s.getOutputStream())) {
                        while (true) {
                            out.writeInt(in.readInt() + 1);
                            out.flush();
                        }
                    } catch (IOException endOfPeer) {
                        // the client closed: this connection's thread ends
                    }
                });
            }
        }
    }

    private static void forward(String host, Path portFile, String targetHost, int targetPort) throws IOException {
        try (ServerSocket listener = listen(host, portFile)) {
            while (true) {
                Socket a = listener.accept();
                Socket b = new Socket(targetHost, targetPort);
                a.setTcpNoDelay(true);
                b.setTcpNoDelay(true);
                Thread.ofPlatform().start(() -> copy(a, b));
                Thread.ofPlatform().start(() -> copy(b, a));
            }
        }
    }

    /** Copies what arrives as it arrives: one read, one write per message, the least a forwarder can do. */
    private static void copy(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
        } catch (IOException closed) {
            // either side closed: close both below
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    private static void client(long seconds, int rounds, String[] specs) throws IOException {
        int paths = specs.length;
        String[] names = new String[paths];
        Socket[] sockets = new Socket[paths];
        DataInputStream[] ins = new DataInputStream[paths];
        DataOutputStream[] outs = new DataOutputStream[paths];
        List<List<long[]>> samples = new ArrayList<>();
        for (int i = 0; i < paths; i++) {
            String[] nameAddress = specs[i].split("=", 2);
            int colon = nameAddress[1].lastIndexOf(':');
            names[i] = nameAddress[0];
            sockets[i] = new Socket(nameAddress[1].substring(0, colon),
                    Integer.parseInt(nameAddress[1].substring(colon + 1)));
            sockets[i].setTcpNoDelay(true);
            ins[i] = new DataInputStream(sockets[i].getInputStream());
            outs[i] = new DataOutputStream(sockets[i].getOutputStream());
            samples.add(new ArrayList<>());
        }
        long roundNanos = seconds * 1_000_000_000L;
        for (int round = 0; round < rounds; round++) {
            for (int p = 0; p < paths; p++) {
                long[] took = new long[1 << 20];
                int n = 0;
                long end = System.nanoTime() + roundNanos;
                int value = 0;
                while (n < took.length) {
                    long start = System.nanoTime();
                    if (start >= end) {
                        break;
                    }
                    outs[p].writeInt(value);
                    outs[p].flush();
                    int answer = ins[p].readInt();
                    if (answer != value + 1) {
                        throw new IOException(names[p] + ": expected " + (value + 1) + ", found " + answer);
                    }
                    value = answer;
                    took[n++] = System.nanoTime() - start;
                }
                if (round > 0) {
                    samples.get(p).add(Arrays.copyOf(took, n));
                }
            }
        }
        double firstP50 = 0;
        double firstMean = 0;
        System.out.printf(Locale.ROOT, "%-10s %10s %9s %9s %9s %12s %12s%n",
                "path", "trips", "p50 us", "mean us", "p90 us", "p50/first", "mean/first");
        for (int p = 0; p < paths; p++) {
            long[] all = samples.get(p).stream().flatMapToLong(Arrays::stream).sorted().toArray();
            double p50 = all[all.length / 2] / 1000.0;
            double p90 = all[(int) (all.length * 0.9)] / 1000.0;
            double mean = Arrays.stream(all).average().orElse(0) / 1000.0;
            if (p == 0) {
                firstP50 = p50;
                firstMean = mean;
            }
            System.out.printf(Locale.ROOT, "%-10s %10d %9.1f %9.1f %9.1f %12.2f %12.2f%n",
                    names[p], all.length, p50, mean, p90, p50 / firstP50, mean / firstMean);
        }
        for (Socket s : sockets) {
            s.close();
        }
    }
}
