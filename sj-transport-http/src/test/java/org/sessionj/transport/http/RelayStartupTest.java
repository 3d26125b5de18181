package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.KeyMaterial;
import org.sessionj.transport.tls.TlsConfig;
import org.sessionj.transport.tls.TlsContexts;

/**
 * A relay that is starting: it says it listens only once it answers ({@link HttpRelay#selfCheck}), and a
 * server registering at it waits for a slow answer and retries what a relay not up yet answers, within the
 * vanish time. Before, a server gave a registration one attempt of 10 s: a 502 from a proxy in front of a
 * relay still starting failed {@code listen} at once, and a cold {@code ./sj relay --tls} process on a
 * loaded machine made the chat's server time out (3 runs in 10 at load 25).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RelayStartupTest {
    private final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) { // acceptors before the relay they unregister from
            opened.get(i).close();
        }
    }

    private <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    private static HttpTransport transportVia(int port, String vanishMillis) {
        return new HttpTransport(TestConfigs.of("sessionj.http.relay", "localhost:" + port,
                "sessionj.http.vanishMillis", vanishMillis, "sessionj.http.websocket", "false"));
    }

    @Test
    void aRelayAnswersItsOwnRequestOverHttpAndHttps() throws Exception {
        HttpRelay plain = track(HttpRelay.start(new InetSocketAddress(0), null, RelayLimits.defaults()));
        assertThat(plain.selfCheck(Duration.ofSeconds(20))).isPositive();
        // A certificate that names no address of this host: the check neither verifies it nor the name.
        KeyMaterial elsewhere = Certificates.selfSigned("relay.example", List.of("relay.example"));
        HttpRelay tls = track(HttpRelay.start(new InetSocketAddress("127.0.0.1", 0),
                TlsContexts.server(TlsConfig.builder().keyMaterial(elsewhere).build()), RelayLimits.defaults()));
        assertThat(tls.selfCheck(Duration.ofSeconds(20))).isPositive();
    }

    @Test
    void aRelayThatCannotAnswerFailsItsSelfCheckWithTheReason() throws Exception {
        // Demands client certificates, which the check (like most peers) does not have: no request gets through.
        KeyMaterial key = Certificates.selfSigned("localhost", Certificates.localhostNames());
        SslContext demanding = SslContextBuilder.forServer(key.privateKey(), key.chain().toArray(new java.security.cert.X509Certificate[0]))
                .clientAuth(ClientAuth.REQUIRE).trustManager(key.certificate()).protocols("TLSv1.3").build();
        HttpRelay relay = track(HttpRelay.start(new InetSocketAddress(0), demanding, RelayLimits.defaults()));
        assertThatThrownBy(() -> relay.selfCheck(Duration.ofSeconds(20)))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("the relay does not answer on its own port (https://127.0.0.1:" + relay.port() + "): ");
    }

    @Test
    void aServerRegistersThroughAProxyThatAnswers502UntilTheRelayIsUp() throws Exception {
        HttpRelay relay = track(HttpRelay.start(0));
        Gateway gateway = track(new Gateway(relay.port(), 3));
        ConnectionAcceptor acceptor = track(transportVia(gateway.port(), "15000").listen(0));
        assertThat(gateway.refused.get()).as("the first three attempts were answered 502").isEqualTo(3);
        assertThat(acceptor.port()).isPositive();
        assertThat(relay.stats().listeners()).isEqualTo(1);
    }

    @Test
    void aRefusalThatRetryingCannotMendFailsAtOnce() throws Exception {
        HttpRelay relay = track(HttpRelay.start(0));
        track(transportVia(relay.port(), "15000").listen(4711));
        long start = System.nanoTime();
        assertThatThrownBy(() -> track(transportVia(relay.port(), "15000").listen(4711)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot register session port 4711 at the relay http://localhost:" + relay.port())
                .hasMessageContaining("409 Conflict");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("no retries").isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aRelayThatNeverAnswersFailsTheRegistrationAfterTheVanishTime() throws Exception {
        ServerSocket silent = track(new ServerSocket(0));
        List<Socket> held = new CopyOnWriteArrayList<>();
        Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    held.add(silent.accept()); // reads nothing, answers nothing
                }
            } catch (IOException e) {
                // closed
            }
        });
        try {
            assertThatThrownBy(() -> track(transportVia(silent.getLocalPort(), "1500").listen(0)))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("cannot register session port 0 at the relay http://localhost:"
                            + silent.getLocalPort() + " within 1500 ms (sessionj.http.vanishMillis): ");
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    /**
     * A stand-in for a proxy in front of a relay that is still starting: the first {@code refusals}
     * connections get {@code 502 Bad Gateway}, later ones are forwarded to the relay.
     */
    private static final class Gateway implements AutoCloseable {
        final AtomicInteger refused = new AtomicInteger();
        private final ServerSocket server = new ServerSocket();
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();

        Gateway(int relayPort, int refusals) throws IOException {
            server.bind(new InetSocketAddress("localhost", 0));
            Thread.ofPlatform().daemon().name("gateway").start(() -> {
                try {
                    while (true) {
                        Socket client = server.accept();
                        sockets.add(client);
                        if (refused.get() < refusals) {
                            refuse(client);
                            continue;
                        }
                        Socket upstream = new Socket("localhost", relayPort);
                        sockets.add(upstream);
                        CountingProxy.splice(client, upstream, null);
                    }
                } catch (IOException e) {
                    // closed
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        private void refuse(Socket client) throws IOException {
            InputStream in = client.getInputStream();
            int last = 0;
            for (int b; (b = in.read()) >= 0; ) { // the head (registrations have no body)
                last = (last << 8 | b) & 0xffffffff;
                if (last == 0x0d0a0d0a) {
                    break;
                }
            }
            String body = "the relay is not up yet";
            client.getOutputStream().write(("HTTP/1.1 502 Bad Gateway\r\nContent-Length: " + body.length()
                    + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
            refused.incrementAndGet();
            client.close();
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
