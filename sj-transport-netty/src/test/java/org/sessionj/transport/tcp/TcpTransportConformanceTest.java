package org.sessionj.transport.tcp;

import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;

class TcpTransportConformanceTest extends TransportConformanceTest {
    private final Transport transport = new TcpTransport();

    @Override
    protected Transport transport() {
        return transport;
    }
}
