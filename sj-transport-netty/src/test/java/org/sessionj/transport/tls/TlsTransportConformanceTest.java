package org.sessionj.transport.tls;

import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;

class TlsTransportConformanceTest extends TransportConformanceTest {
    private static final KeyMaterial KEY = Certificates.selfSigned("localhost", Certificates.localhostNames());

    private final Transport transport = new TlsTransport(
            TlsConfig.builder().keyMaterial(KEY).trust(KEY.certificate()).build());

    @Override
    protected Transport transport() {
        return transport;
    }
}
