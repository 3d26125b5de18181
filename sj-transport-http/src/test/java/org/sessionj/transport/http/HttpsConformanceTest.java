package org.sessionj.transport.http;

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

    @Override
    protected Transport transport() {
        return transport;
    }
}
