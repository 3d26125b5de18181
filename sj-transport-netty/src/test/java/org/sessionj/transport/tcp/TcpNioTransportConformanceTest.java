package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;
import org.sessionj.transport.netty.internal.NettySettings;

/** The same contract on the NIO event loops (the fallback when native epoll does not load). */
class TcpNioTransportConformanceTest extends TransportConformanceTest {
    private final TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties().withPreferNative(false));

    @Override
    protected Transport transport() {
        return transport;
    }

    @Test
    void runsOnNio() {
        assertThat(transport.eventLoopKind()).isEqualTo("nio");
    }
}
