package org.sessionj.transport.http;

import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;

/** Direct mode over long polling (WebSocket switched off). */
class HttpLongPollConformanceTest extends TransportConformanceTest {
    private final Transport transport = new HttpTransport(TestConfigs.of("sessionj.http.websocket", "false"));

    @Override
    protected Transport transport() {
        return transport;
    }
}
