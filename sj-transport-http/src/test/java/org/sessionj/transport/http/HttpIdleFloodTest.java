package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;

/**
 * hostile18 H1 against the relay: one address fills its connection limit with kept-alive connections, each having
 * made one cheap request (404) and idle since; an honest client from another address, again and again, is served
 * (before: every one was reset for as long as the flood lasted), and each costs the flood its idle connections.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpIdleFloodTest {
    private final List<RawHttp> flood = new ArrayList<>();
    private HttpRelay relay;

    @AfterEach
    void close() throws IOException {
        for (RawHttp c : flood) {
            c.close();
        }
        if (relay != null) {
            relay.close();
        }
    }

    @Test
    void honestClientsAreServedWhileOneAddressHoldsEveryConnectionIdle() throws Exception {
        relay = HttpRelay.start(new InetSocketAddress("127.0.0.1", 0), null,
                new RelayLimits(16, 1024, 256, 64, 64, 10_000, 256L << 20, 20_000));
        InetAddress flooder = InetAddress.getByName("127.0.0.2");
        for (int i = 0; i < 16; i++) {
            RawHttp c = new RawHttp(flooder, relay.port(), 10_000);
            flood.add(c);
            assertThat(c.exchange("GET", "/sessionj/v1/x").status()).isEqualTo(404);
        }
        for (int i = 0; i < 5; i++) {
            try (RawHttp honest = new RawHttp(InetAddress.getByName("127.0.0.1"), relay.port(), 10_000)) {
                assertThat(honest.exchange("GET", "/sessionj/v1/x").status()).as("honest client " + i).isEqualTo(404);
            }
        }
        assertThat(relay.evictedIdle()).isBetween(1L, 5L);
    }
}
