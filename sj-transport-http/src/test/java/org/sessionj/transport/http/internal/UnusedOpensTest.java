package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.transport.http.RawHttp;

/**
 * hostile18 H4: {@code POST /open} alone, pipelined on 4 kept-alive connections, took all 8,192 connection halves of
 * a direct server within 8 s, each for the 15 s vanish time, and every requester was answered 503. Now one address
 * holds at most its cap of connections opened and not used, and when the table is full an open evicts unused ones of
 * the address holding the most.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnusedOpensTest {
    private final List<RawHttp> clients = new ArrayList<>();
    private DirectAcceptor acceptor;

    @AfterEach
    void close() throws IOException {
        for (RawHttp c : clients) {
            c.close();
        }
        if (acceptor != null) {
            acceptor.close();
        }
    }

    private RawHttp client(String from) throws IOException {
        RawHttp c = new RawHttp(InetAddress.getByName(from), acceptor.port(), 10_000);
        clients.add(c);
        return c;
    }

    private static RawHttp.Response open(RawHttp c) throws IOException {
        return c.exchange("POST", Wire.OPEN);
    }

    @Test
    void oneAddressHoldsAtMostItsCapOfUnusedConnectionsAndOthersAreServed() throws Exception {
        acceptor = DirectAcceptor.listen("http", HttpSettings.fromSystemProperties(), 0, 0, null, 100, new UnusedOpens(4),
                StreamMemory.shared());
        RawHttp flood = client("127.0.0.2");
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RawHttp.Response r = open(flood);
            assertThat(r.status()).isEqualTo(200);
            tokens.add(r.body().strip());
        }
        RawHttp.Response refused = open(flood);
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.body()).isEqualTo("the address 127.0.0.2 has 4 connections opened here and not used yet, the"
                + " most one address may have (sessionj.http.maxUnusedOpensPerAddress); retry once they are used or gone");
        assertThat(acceptor.refusedUnusedPerAddress()).isEqualTo(1);
        assertThat(open(client("127.0.0.1")).status()).as("another address").isEqualTo(200);

        // Used (a poll with its token): it no longer counts, and the address may open one more.
        assertThat(flood.exchange("GET", Wire.SESSION + tokens.get(0) + "/down?ack=0&window=0").status()).isEqualTo(204);
        assertThat(open(flood).status()).isEqualTo(200);
        assertThat(open(flood).status()).isEqualTo(503);
    }

    @Test
    void whenTheTableIsFullAnOpenEvictsTheOldestUnusedConnectionOfTheAddressHoldingMost() throws Exception {
        acceptor = DirectAcceptor.listen("http", HttpSettings.fromSystemProperties(), 0, 0, null, 6, new UnusedOpens(4),
                StreamMemory.shared());
        RawHttp two = client("127.0.0.2");
        List<String> flood = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flood.add(open(two).body().strip());
        }
        RawHttp three = client("127.0.0.3");
        List<String> other = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            other.add(open(three).body().strip());
        }
        // 127.0.0.3's first is used: a session, never evicted.
        assertThat(three.exchange("GET", Wire.SESSION + other.get(0) + "/down?ack=0&window=0").status()).isEqualTo(204);

        RawHttp.Response honest = open(client("127.0.0.4"));
        assertThat(honest.status()).as("an open with the table full").isEqualTo(200);
        assertThat(acceptor.evictedUnused()).isEqualTo(1);
        assertThat(acceptor.half(flood.get(0))).as("the oldest unused of the address holding most").isNull();
        for (int i = 1; i < 4; i++) {
            assertThat(acceptor.half(flood.get(i))).as("flood connection " + i).isNotNull();
        }
        assertThat(acceptor.half(other.get(0))).isNotNull();
        assertThat(acceptor.half(other.get(1))).isNotNull();
        assertThat(two.exchange("GET", Wire.SESSION + flood.get(0) + "/down?ack=0").status()).as("its token").isEqualTo(404);
    }

    @Test
    void whenTheTableIsFullOfUsedConnectionsAnOpenIsAnswered503AsBefore() throws Exception {
        acceptor = DirectAcceptor.listen("http", HttpSettings.fromSystemProperties(), 0, 0, null, 2, new UnusedOpens(4),
                StreamMemory.shared());
        RawHttp c = client("127.0.0.2");
        for (int i = 0; i < 2; i++) {
            String token = open(c).body().strip();
            assertThat(c.exchange("GET", Wire.SESSION + token + "/down?ack=0&window=0").status()).isEqualTo(204);
        }
        RawHttp.Response refused = open(client("127.0.0.3"));
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.body()).isEqualTo("too many connections waiting; retry later");
        assertThat(acceptor.refusedFull()).isEqualTo(1);
        assertThat(acceptor.evictedUnused()).isZero();
    }
}
