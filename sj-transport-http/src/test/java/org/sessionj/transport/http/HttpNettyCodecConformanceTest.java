package org.sessionj.transport.http;

import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;

/**
 * Direct mode over long polling with the lean codec off ({@code sessionj.http.leanCodec=false}): Netty's
 * HTTP codec on both sides for every request and answer, the path every connection takes after the
 * lean decoders hand it over.
 */
class HttpNettyCodecConformanceTest extends TransportConformanceTest {
    private final Transport transport = new HttpTransport(TestConfigs.of("sessionj.http.websocket", "false",
            "sessionj.http.leanCodec", "false"));

    @Override
    protected Transport transport() {
        return transport;
    }
}
