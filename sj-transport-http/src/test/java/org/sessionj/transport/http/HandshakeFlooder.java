package org.sessionj.transport.http;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * The flood of {@link HttpsHandshakeFloodFaultTest}, in a process of its own: {@code THREADS} threads open TLS
 * connections to {@code localhost:PORT} one after another, finish a full handshake, send one request, read the
 * status line's start and close, for {@code MILLIS}; then it prints {@code HANDSHAKES <done> <failed>}. In its own
 * JVM the flooders' cryptography, garbage and threads are not the server's (they still share the machine's cores).
 */
public final class HandshakeFlooder {
    private HandshakeFlooder() {
    }

    /**
     * Floods, prints the count and exits.
     *
     * @param args PORT THREADS MILLIS
     * @throws Exception if the TLS context cannot be made
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        long millis = Long.parseLong(args[2]);
        AtomicInteger[] counts = run(port, threads, millis, () -> System.out.println("STARTED"));
        System.out.println("HANDSHAKES " + counts[0].get() + " " + counts[1].get());
    }

    /**
     * Floods {@code port} with {@code threads} threads for {@code millis}, running {@code started} just before the
     * threads start; the handshakes done and failed.
     */
    static AtomicInteger[] run(int port, int threads, long millis, Runnable started) throws Exception {
        SSLContext flooder = SSLContext.getInstance("TLSv1.3");
        flooder.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        started.run();
        AtomicInteger handshakes = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        byte[] request = "GET /flood HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        List<Thread> flooding = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            flooding.add(Thread.ofPlatform().daemon().name("https-flood-" + t).start(() -> {
                while (System.nanoTime() - end < 0) {
                    try (SSLSocket tls = (SSLSocket) flooder.getSocketFactory()
                            .createSocket(InetAddress.getLoopbackAddress(), port)) {
                        tls.setSoTimeout(10_000);
                        tls.startHandshake();
                        tls.getOutputStream().write(request);
                        tls.getInputStream().readNBytes(12); // the status line's start
                        handshakes.incrementAndGet();
                    } catch (IOException e) {
                        failures.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread thread : flooding) {
            thread.join(millis + 60_000);
        }
        return new AtomicInteger[] {handshakes, failures};
    }
}
