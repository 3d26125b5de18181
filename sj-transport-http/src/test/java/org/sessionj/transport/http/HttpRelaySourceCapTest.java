package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;

/**
 * One source address cannot take the relay's servers or sessions for itself (before, one client could
 * register every server slot and make every relayed connection): past its per-source cap it is answered
 * 429 with a message naming the address, the cap and its option, while another address (127.0.0.2:
 * Linux routes all of 127/8 to lo) is still served; a server that stops listening frees its slot.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpRelaySourceCapTest {
    private static final HttpSettings SETTINGS = new HttpSettings(2_000, 64 << 10, 256 << 10, 256 << 10, 15_000, true,
            16 << 20);
    private HttpRelay relay;

    @BeforeEach
    void start() throws IOException {
        relay = HttpRelay.start(new InetSocketAddress("127.0.0.1", 0), null, SETTINGS,
                RelayLimits.defaults().withPerSource(2, 3));
    }

    @AfterEach
    void stop() {
        relay.close();
    }

    private RawHttp from(String address) throws IOException {
        return new RawHttp(InetAddress.getByName(address), relay.port(), 10_000);
    }

    private static RawHttp.Response register(RawHttp http, String id, String name) throws IOException {
        return http.exchange("POST", Wire.LISTEN + "?id=" + id + "&port=7000&name=" + name + "&register=1");
    }

    @Test
    void oneAddressRegistersAtMostItsCapOfServersAndAnotherAddressIsStillServed() throws IOException {
        try (RawHttp one = from("127.0.0.1"); RawHttp two = from("127.0.0.2")) {
            String first = Wire.newToken();
            assertThat(register(one, first, "a1").status()).isEqualTo(200);
            assertThat(register(one, Wire.newToken(), "a2").status()).isEqualTo(200);
            RawHttp.Response refused = register(one, Wire.newToken(), "a3");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.body()).isEqualTo("the address 127.0.0.1 has 2 servers registered at this relay already,"
                    + " the most one address may register (./sj relay --max-servers-per-address); retry once one has"
                    + " stopped listening");
            assertThat(register(two, Wire.newToken(), "b1").status()).as("another address").isEqualTo(200);
            assertThat(relay.stats().listeners()).isEqualTo(3);

            assertThat(one.exchange("POST", Wire.LISTEN + "?id=" + first + "&port=7000&close=1").status()).isLessThan(300);
            assertThat(register(one, Wire.newToken(), "a3").status()).as("a slot freed by a server that stopped")
                    .isEqualTo(200);
        }
    }

    @Test
    void oneAddressMakesAtMostItsCapOfRelayedConnectionsAndAnotherAddressIsStillServed() throws IOException {
        try (RawHttp server = from("127.0.0.3"); RawHttp one = from("127.0.0.1"); RawHttp two = from("127.0.0.2")) {
            assertThat(register(server, Wire.newToken(), "s").status()).isEqualTo(200);
            for (int i = 0; i < 3; i++) {
                assertThat(one.exchange("POST", Wire.CONNECT + "?target=s:7000").status()).isEqualTo(200);
            }
            RawHttp.Response refused = one.exchange("POST", Wire.CONNECT + "?target=s:7000");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.body()).isEqualTo("the address 127.0.0.1 has 3 relayed connections at this relay already,"
                    + " the most one address may have (./sj relay --max-sessions-per-address); retry once one has ended");
            assertThat(two.exchange("POST", Wire.CONNECT + "?target=s:7000").status()).as("another address")
                    .isEqualTo(200);
            assertThat(relay.stats().sessions()).as("halves: two per relayed connection").isEqualTo(8);
        }
    }

    /** 400 answers name what was expected and what was found. */
    @Test
    void badRegistrationsAndConnectsSayWhatWasExpectedAndFound() throws IOException {
        try (RawHttp http = from("127.0.0.1")) {
            assertThat(http.exchange("POST", Wire.CONNECT + "?target=a/b").body())
                    .isEqualTo("connect needs target=host:port, found target=a/b");
            assertThat(http.exchange("POST", Wire.CONNECT).body()).isEqualTo("connect needs target=host:port, found no target");
            assertThat(http.exchange("POST", Wire.LISTEN + "?id=short&port=99999").body())
                    .isEqualTo("listen needs id=<32 hex digits> and port=0..65535, found id=short and port=99999");
            RawHttp.Response name = register(http, Wire.newToken(), "a%2Fb");
            assertThat(name.status()).isEqualTo(400);
            assertThat(name.body()).startsWith("a server registers host names").endsWith("found name=a/b");
        }
    }
}
