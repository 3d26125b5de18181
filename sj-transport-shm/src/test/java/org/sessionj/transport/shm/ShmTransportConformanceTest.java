package org.sessionj.transport.shm;

import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;

class ShmTransportConformanceTest extends TransportConformanceTest {
    private final ShmTransport transport = new ShmTransport();

    @Override
    protected Transport transport() {
        return transport;
    }
}
