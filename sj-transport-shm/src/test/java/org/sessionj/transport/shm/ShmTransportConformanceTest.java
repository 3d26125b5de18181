package org.sessionj.transport.shm;

import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;

class ShmTransportConformanceTest extends TransportConformanceTest {
    private final ShmTransport transport = new ShmTransport();

    @Override
    protected Transport transport() {
        return transport;
    }

    /** In-JVM frames queue without a bound (a known gap: docs/reliability.md). */
    @Override
    protected boolean boundsOutbound() {
        return false;
    }
}
