package org.sessionj.bench;

import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.PingClient;
import org.sessionj.bench.BenchProtocols.PingServer;
import org.sessionj.runtime.SJRuntime;

/**
 * An SJ session ({@code cbegin.![!<int>.?(int)]*}) whose server answers every int plus one on a
 * platform thread of its own: the fixture of the session rows of the ping-pong benchmarks.
 */
final class EchoSession {
    /** The requester's socket the benchmark drives. */
    final SJSocket socket;
    private final SJServerSocket server;
    private final Thread echo;

    EchoSession(SJRuntime runtime, String echoThreadName) {
        server = runtime.serverSocket(PingServer.class, 0);
        echo = Thread.ofPlatform().daemon().name(echoThreadName).start(() -> {
            try (SJSocket s = server.accept()) {
                while (s.inwhile()) {
                    s.send(s.receiveInt() + 1);
                }
            }
        });
        socket = runtime.service(PingClient.class, "127.0.0.1", server.port()).request();
    }

    /** Ends the echo and closes both ends. */
    void close() throws InterruptedException {
        socket.outwhile(false);
        socket.close();
        echo.join(10_000);
        server.close();
    }
}
