package org.sessionj.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;

/**
 * A transport's bare connection at both ends, the accepted end echoing every frame back on a platform
 * thread of its own: the fixture of the bare-connection rows of the ping-pong benchmarks.
 */
final class EchoConnections {
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The end the benchmark writes to and reads the echo from. */
    final Connection client;
    private final Connection server;
    private final ConnectionAcceptor acceptor;
    private final Thread echo;

    EchoConnections(Transport transport, String host, String echoThreadName) throws IOException {
        acceptor = transport.listen(0);
        client = transport.connect(host, acceptor.port(), TIMEOUT_NANOS);
        server = acceptor.accept(TIMEOUT_NANOS);
        echo = Thread.ofPlatform().daemon().name(echoThreadName).start(() -> {
            try {
                while (true) {
                    server.write(server.read(-1));
                    server.flush();
                }
            } catch (IOException closed) {
                // the benchmark is over
            }
        });
    }

    /** Ends the echo and closes both ends. */
    void close() throws InterruptedException {
        client.close();
        echo.join(10_000);
        server.close();
        acceptor.close();
    }
}
