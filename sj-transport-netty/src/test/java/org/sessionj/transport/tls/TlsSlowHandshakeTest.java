package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettySettings;

/**
 * A TLS handshake that takes longer than the heartbeat interval (a slow client, or a loaded machine:
 * the fault suite's replayed-ClientHello run hit it at load 38): the server's first application bytes
 * must be its greeting. Before, a heartbeat written while the handshake ran was queued by the TLS
 * handler and went out first, and the client failed with "not an SJ TLS acceptor (bad greeting)".
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsSlowHandshakeTest extends ConnectionTestSupport {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aHandshakeLongerThanTheHeartbeatIntervalStillGetsTheGreetingFirst() throws Exception {
        TlsConfig config = TlsConfig.builder().keyMaterial(Certificates.selfSigned("server", Certificates.localhostNames()))
                .build();
        TlsTransport server = new TlsTransport(config,
                NettySettings.fromSystemProperties().withHeartbeat(new Heartbeat(20 * MS, 10_000 * MS)));
        ConnectionAcceptor acceptor = track(server.listen(0));
        Socket plain = track(new Socket(InetAddress.getLoopbackAddress(), acceptor.port()));
        Thread.sleep(300); // the slow client: fifteen heartbeat intervals before its ClientHello
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, "localhost", acceptor.port(), true);
        tls.setSoTimeout(20_000);
        tls.startHandshake();
        InputStream in = tls.getInputStream();
        byte[] first = in.readNBytes(4);
        assertThat(new String(first, StandardCharsets.ISO_8859_1)).as("the server's first application bytes")
                .isEqualTo("SJT1");
        tls.close();
    }
}
