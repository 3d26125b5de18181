package org.sessionj.transport.http;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.KeyMaterial;
import org.sessionj.transport.tls.TlsConfig;

/** https in direct mode, with the tls transport's configuration (a self-signed development certificate). */
class HttpsConformanceTest extends TransportConformanceTest {
    private static final KeyMaterial KEY = Certificates.selfSigned("localhost", Certificates.localhostNames());

    private final Transport transport = new HttpsTransport(TestConfigs.of(),
            TlsConfig.builder().keyMaterial(KEY).trust(KEY.certificate()).build());

    /**
     * One connection before the tests, outside their 30 s timeouts: the JVM's first TLS handshake
     * (JSSE and the providers loading, cold code) took over 30 s in a full build on the loaded machine
     * and failed whichever test came first. The tests time what they test, not the start-up.
     */
    @BeforeAll
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    static void warmUpTls() throws IOException {
        Transport warm = new HttpsTransport(TestConfigs.of(),
                TlsConfig.builder().keyMaterial(KEY).trust(KEY.certificate()).build());
        try (ConnectionAcceptor acceptor = warm.listen(0);
                Connection requester = warm.connect("localhost", acceptor.port(), TimeUnit.SECONDS.toNanos(150));
                Connection accepter = acceptor.accept(TimeUnit.SECONDS.toNanos(150))) {
            if (accepter == null) {
                throw new IOException("the warm-up connection was not accepted within 150 s");
            }
        }
    }

    @Override
    protected Transport transport() {
        return transport;
    }
}
