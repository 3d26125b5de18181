package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.KeyMaterial;
import org.sessionj.transport.tls.TlsConfig;

/**
 * An https client (WebSocket or long polling) whose server accepts the TCP connection and never answers
 * the ClientHello fails within the connect's timeout (the runtime passes {@code sessionj.setupAttemptTimeout},
 * or the initiation timeout for the last transport) with a message naming the TLS handshake, and closes
 * the connection at once. Before, it failed at the timeout with "no answer … to POST /open" and left the
 * connection open until Netty's own handshake timeout, 10 s later.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpsClientHandshakeTimeoutTest {
    private static final KeyMaterial KEY = Certificates.selfSigned("localhost", Certificates.localhostNames());

    @ParameterizedTest(name = "websocket {0}")
    @ValueSource(booleans = {true, false})
    void aServerThatNeverAnswersTheClientHelloFailsTheConnectInTimeAndIsLetGo(boolean websocket) throws Exception {
        HttpsTransport https = new HttpsTransport(TestConfigs.of("sessionj.http.websocket", String.valueOf(websocket)),
                TlsConfig.builder().keyMaterial(KEY).trust(KEY.certificate()).build());
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return silent.accept();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThatThrownBy(() -> https.connect("localhost", silent.getLocalPort(), TimeUnit.SECONDS.toNanos(2)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("the TLS handshake with https://localhost:" + silent.getLocalPort()
                            + " did not complete within 2000 ms");
            try (Socket socket = accepted.get(10, TimeUnit.SECONDS)) {
                // The ClientHello, then the end: the client let the connection go with its failure (before:
                // only at Netty's handshake timeout, 10 s after the connect).
                socket.setSoTimeout(5_000);
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[4096];
                int total = 0;
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    total += n;
                }
                assertThat(total).as("the ClientHello's bytes").isPositive();
            }
        }
    }
}
