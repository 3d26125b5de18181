package org.sessionj.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP forwarder in front of an HTTP server that counts the requests passing through it (request
 * lines ending in {@code " HTTP/1.1"}), so that a test can see how many HTTP requests an exchange costs.
 */
final class CountingProxy implements AutoCloseable {
    private static final byte[] MARK = " HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private final ServerSocket server;
    private final int target;
    private final AtomicLong requests = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    CountingProxy(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress("localhost", 0));
        Thread.ofPlatform().daemon().name("counting-proxy").start(this::acceptLoop);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Requests forwarded so far. */
    long requests() {
        return requests.get();
    }

    private void acceptLoop() {
        try {
            while (true) {
                Socket client = server.accept();
                Socket upstream = new Socket("localhost", target);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                splice(client, upstream, requests);
            }
        } catch (IOException e) {
            // closed
        }
    }

    /**
     * Copies bytes both ways between {@code client} and {@code upstream}, each way on a daemon thread of
     * its own, until either side closes (then both are closed); counts the HTTP/1.1 requests the client
     * sends into {@code requests} (null: none counted). Also the forwarding of other tests' stand-ins.
     */
    static void splice(Socket client, Socket upstream, AtomicLong requests) {
        Thread.ofPlatform().daemon().start(() -> pump(client, upstream, requests));
        Thread.ofPlatform().daemon().start(() -> pump(upstream, client, null));
    }

    private static void pump(Socket from, Socket to, AtomicLong requests) {
        byte[] buffer = new byte[64 << 10];
        int matched = 0;
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (requests != null) {
                    for (int i = 0; i < n; i++) {
                        matched = buffer[i] == MARK[matched] ? matched + 1 : buffer[i] == MARK[0] ? 1 : 0;
                        if (matched == MARK.length) {
                            requests.incrementAndGet();
                            matched = 0;
                        }
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
