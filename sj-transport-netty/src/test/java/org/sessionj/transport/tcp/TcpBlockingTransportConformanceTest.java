package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;
import org.sessionj.transport.netty.internal.NettySettings;

/** The same contract with blocking sockets read and written by the session threads (sessionj.tcp.io=blocking). */
class TcpBlockingTransportConformanceTest extends TransportConformanceTest {
    private final TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties(), TcpTransport.IoMode.BLOCKING);

    @Override
    protected Transport transport() {
        return transport;
    }

    @Test
    void runsBlocking() {
        assertThat(transport.ioMode()).isEqualTo(TcpTransport.IoMode.BLOCKING);
    }
}
