package org.sessionj.transport.http.real;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.http.HttpTransport;
import org.sessionj.transport.http.internal.TunnelConnection;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.session.HttpProtocols.BulkClient;
import org.sessionj.transport.http.session.HttpProtocols.BulkServer;
import org.sessionj.transport.http.session.HttpProtocols.LoopClient;
import org.sessionj.transport.http.session.HttpProtocols.LoopServer;
import org.sessionj.transport.http.session.LoopSession;

/**
 * Sessions through a real nginx (Debian's nginx-light, started by scripts/http-nginx.sh with a stock
 * reverse-proxy configuration) in front of the relay: loops and branches, a 16 MiB frame, and an idle
 * gap longer than nginx's proxy_read_timeout (set to 2 s here so that the test is fast; the clients
 * poll every second, as the default 20 s poll is under nginx's default 60 s). Twice: with the stock
 * configuration, which does not pass WebSocket upgrades (the clients fall back to long polling), and
 * with nginx's WebSocket proxying headers added (the clients use WebSocket, kept alive by pings).
 * Run with {@code ./mvnw -Phttp-real -pl sj-transport-http -am verify} (root, to install nginx).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class NginxRealTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int BIG = (16 << 20) - 64;
    private static HttpRelay relay;

    @BeforeAll
    static void startRelay() throws Exception {
        Scripts.run("http-nginx.sh", "install");
        relay = HttpRelay.start(0);
    }

    @AfterAll
    static void stopRelay() {
        relay.close();
    }

    @AfterEach
    void clear() {
        for (String key : List.of("sessionj.http.relay", "sessionj.http.pollMillis", "sessionj.http.names")) {
            System.clearProperty(key);
        }
    }

    @Test
    void throughAStockNginxSessionsFallBackToLongPollingAndSurviveItsTimeouts() throws Exception {
        throughNginx(false, "long-poll");
    }

    @Test
    void throughAnNginxThatPassesUpgradesSessionsUseWebSocket() throws Exception {
        throughNginx(true, "websocket");
    }

    private void throughNginx(boolean websocket, String mode) throws Exception {
        Path dir = Scripts.workDirectory("sj-http-nginx-" + mode);
        int port = Scripts.freePort();
        Scripts.run("http-nginx.sh", "start", dir.toString(), String.valueOf(port), String.valueOf(relay.port()), "2s",
                websocket ? "--websocket" : "");
        try {
            System.setProperty("sessionj.http.relay", "127.0.0.1:" + port);
            System.setProperty("sessionj.http.pollMillis", "1000");
            System.setProperty("sessionj.http.names", "hidden.invalid");
            assertThat(linkMode()).isEqualTo(mode);
            SJRuntime http = SJRuntime.create(SJRuntimeConfig.builder().transports("http")
                    .initiationTimeout(Duration.ofSeconds(30)).build());
            try (SJServerSocket loops = http.serverSocket(LoopServer.class, 0);
                    SJServerSocket bulk = http.serverSocket(BulkServer.class, 0)) {
                assertThat(LoopSession.run(loops, http.service(LoopClient.class, "hidden.invalid", loops.port()), 100,
                        true)).isEqualTo(new LoopSession.Ends("http", "http"));
                assertThat(LoopSession.run(loops, http.service(LoopClient.class, "hidden.invalid", loops.port()), 3,
                        false)).isEqualTo(new LoopSession.Ends("http", "http"));
                bigFrameThenIdleGap(http, bulk);
            }
        } finally {
            Scripts.run("http-nginx.sh", "stop", dir.toString());
        }
    }

    /** What link a connection through nginx ends up with. */
    private static String linkMode() throws Exception {
        HttpTransport transport = new HttpTransport();
        try (ConnectionAcceptor acceptor = transport.listen(0)) {
            Connection c = transport.connect("hidden.invalid", acceptor.port(), 10 * SECOND);
            Connection s = acceptor.accept(10 * SECOND);
            String mode = ((TunnelConnection) c).mode();
            c.close();
            s.close();
            return mode;
        }
    }

    /** A 16 MiB frame there, its sum back; then 5 s of silence (over nginx's 2 s read timeout); then one more round. */
    private static void bigFrameThenIdleGap(SJRuntime http, SJServerSocket bulk) throws Exception {
        CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
            try (SJSocket s = bulk.accept(Duration.ofSeconds(30))) {
                byte[] data = s.receive(Duration.ofSeconds(60));
                long sum = 0;
                for (byte b : data) {
                    sum += b;
                }
                s.send(sum);
                s.send(s.receiveInt() + 1);
            }
        });
        try (SJSocket s = http.service(BulkClient.class, "hidden.invalid", bulk.port()).request()) {
            byte[] data = new byte[BIG];
            long sum = 0;
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) (i * 31);
                sum += data[i];
            }
            s.send(data);
            assertThat(s.receiveLong()).isEqualTo(sum);
            Thread.sleep(5_000); // the idle gap under test: longer than nginx's proxy_read_timeout (2 s)
            s.send(41);
            assertThat(s.receiveInt()).isEqualTo(42);
        }
        served.get(60, TimeUnit.SECONDS);
    }
}
