package org.sessionj.bench.load;

import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The server of the accept-load test: accepts {@code OnceServer} sessions over TCP in a plain
 * {@code while (true) accept()} loop, serving each on a virtual thread (one int in, the int plus one
 * out). Prints {@code PORT <n>} and, on every line read from standard input, {@code REFUSED <n>} (its
 * failed handshakes); exits when standard input ends. With the argument {@code netty} it serves the
 * same exchange on plain Netty instead ({@link PlainNettyEcho}: the floor).
 */
public final class AcceptLoadServer {
    /** Set before main closes the server socket, so the accept loop ends quietly. */
    private static volatile boolean closing;

    private AcceptLoadServer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("netty")) {
            System.out.println("PORT " + PlainNettyEcho.listen());
            System.out.flush();
            java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
            while (in.readLine() != null) {
                System.out.println("REFUSED 0");
                System.out.flush();
            }
            return;
        }
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
        SJServerSocket server = runtime.serverSocket(OnceServer.class, 0);
        Thread.ofPlatform().daemon().name("accept-loop").start(() -> {
            while (true) {
                SJSocket s;
                try {
                    s = server.accept();
                } catch (org.sessionj.api.SJIOException e) {
                    if (closing) {
                        return; // the run is over: main closed the socket under this accept
                    }
                    throw e;
                }
                Thread.ofVirtual().start(() -> {
                    try (s) {
                        s.send(s.receiveInt() + 1);
                    } catch (RuntimeException e) {
                        System.err.println("session failed: " + e);
                    }
                });
            }
        });
        System.out.println("PORT " + server.port());
        System.out.flush();
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        while (in.readLine() != null) {
            System.out.println("REFUSED " + SJRuntime.failedHandshakes(server));
            System.out.flush();
        }
        closing = true;
        server.close();
    }
}
