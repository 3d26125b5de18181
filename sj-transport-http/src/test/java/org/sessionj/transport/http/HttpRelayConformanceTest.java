package org.sessionj.transport.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Nested;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;

/** Relay mode: both ends are clients of an in-process relay, over long polling and over WebSocket. */
class HttpRelayConformanceTest extends RelaySessions {
    static Transport viaRelay(boolean websocket) {
        if (relay == null) {
            throw new UncheckedIOException(new IOException("relay not started"));
        }
        return new HttpTransport(TestConfigs.of("sessionj.http.relay", "localhost:" + relay.port(),
                "sessionj.http.websocket", String.valueOf(websocket)));
    }

    @Nested
    class LongPolling extends TransportConformanceTest {
        private final Transport transport = viaRelay(false);

        @Override
        protected Transport transport() {
            return transport;
        }
    }

    @Nested
    class WebSocket extends TransportConformanceTest {
        private final Transport transport = viaRelay(true);

        @Override
        protected Transport transport() {
            return transport;
        }
    }
}
