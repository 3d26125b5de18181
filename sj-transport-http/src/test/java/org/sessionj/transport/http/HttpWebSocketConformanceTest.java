package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;
import org.sessionj.transport.http.internal.TunnelConnection;

/** Direct mode over WebSocket (the default where the path allows the upgrade). */
class HttpWebSocketConformanceTest extends TransportConformanceTest {
    private final Transport transport = new HttpTransport(TestConfigs.of());

    @Override
    protected Transport transport() {
        return transport;
    }

    @Test
    void theDirectPathUpgradesToWebSocket() throws IOException {
        Connection[] ends = connectedPair();
        assertThat(((TunnelConnection) ends[0]).mode()).isEqualTo("websocket");
    }
}
