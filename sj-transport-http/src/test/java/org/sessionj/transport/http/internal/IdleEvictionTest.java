package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.transport.http.RawHttp;

/**
 * hostile18 H1: one address held every connection of the relay (and of a direct http server) with kept-alive
 * connections that each made one cheap request per 25 s, so the idle timeout never fired and none was ever a stalled
 * request; every other client was refused. At the limit a newcomer now evicts idle connections of the address with
 * the most of them. The server's clock is driven by the test (no test waits for real seconds).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleEvictionTest {
    private static final String HOLD = "/hold";
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final ConcurrentLinkedQueue<Exchange> held = new ConcurrentLinkedQueue<>();
    private final List<RawHttp> clients = new ArrayList<>();
    private TunnelServer server;

    /** Holds requests for {@code /hold} (a long poll's stand-in); answers everything else 404. */
    private final Routes routes = new Routes() {
        @Override
        public Half half(String token) {
            return null;
        }

        @Override
        public void route(Exchange exchange) {
            if (exchange.query().path().equals(HOLD)) {
                held.add(exchange);
            } else {
                exchange.fail(HttpResponseStatus.NOT_FOUND, "nothing here");
            }
        }
    };

    @AfterEach
    void close() throws IOException {
        for (RawHttp c : clients) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void bind(int maxConnections) throws IOException {
        server = TunnelServer.bind(new InetSocketAddress("127.0.0.1", 0), null, HttpSettings.fromSystemProperties(), routes,
                maxConnections, 30_000, 1 << 20, () -> null, clock::get);
    }

    private RawHttp client(String from) throws IOException {
        RawHttp c = new RawHttp(InetAddress.getByName(from), server.port(), 20_000);
        clients.add(c);
        return c;
    }

    /** A connection from {@code from} that made one request, answered: kept alive and idle. */
    private RawHttp idle(String from) throws IOException {
        RawHttp c = client(from);
        assertThat(c.exchange("GET", "/x").status()).isEqualTo(404);
        return c;
    }

    /** The status of a request on a new connection from {@code from}; -1 if it was closed without an answer. */
    private int newcomer(String from) throws IOException {
        try {
            return client(from).exchange("GET", "/x").status();
        } catch (IOException reset) {
            return -1;
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void atTheLimitANewcomerEvictsAnIdleConnectionOfTheAddressHoldingMostAndHeldRequestsStay() throws Exception {
        bind(6);
        List<RawHttp> flood = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flood.add(idle("127.0.0.2"));
        }
        RawHttp otherIdle = idle("127.0.0.3");
        RawHttp poll = client("127.0.0.4");
        poll.send("GET " + HOLD + " HTTP/1.1\r\nHost: x\r\n\r\n");
        await(() -> held.size() == 1 && server.idleConnections() == 5, "four + one idle connections, one poll held");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(60));

        assertThat(newcomer("127.0.0.5")).as("a newcomer at the limit is served").isEqualTo(404);
        assertThat(server.evictedIdle()).isEqualTo(1);
        int closed = 0;
        for (RawHttp c : flood) {
            c.socketTimeout(2_000);
            closed += c.closedByServer() ? 1 : 0;
        }
        assertThat(closed).as("connections of the address holding most idle evicted").isEqualTo(1);
        otherIdle.socketTimeout(200);
        assertThat(otherIdle.closedByServer()).as("the other address's idle connection").isFalse();
        assertThat(otherIdle.exchange("GET", "/x").status()).isEqualTo(404);

        held.poll().fail(HttpResponseStatus.OK, "held to the end");
        assertThat(poll.read().status()).as("the held poll was not evicted").isEqualTo(200);
    }

    @Test
    void theLongestIdleConnectionOfThatAddressGoesFirst() throws Exception {
        bind(3);
        RawHttp oldest = idle("127.0.0.2");
        await(() -> server.idleConnections() == 1, "the first idle");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(10));
        RawHttp newer = idle("127.0.0.2");
        RawHttp newest = idle("127.0.0.2");
        await(() -> server.idleConnections() == 3, "three idle");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));

        assertThat(newcomer("127.0.0.9")).isEqualTo(404);
        oldest.socketTimeout(2_000);
        assertThat(oldest.closedByServer()).as("the longest idle").isTrue();
        newer.socketTimeout(200);
        newest.socketTimeout(200);
        assertThat(newer.closedByServer() || newest.closedByServer()).as("the others").isFalse();
    }

    @Test
    void whenNoConnectionIsIdleOrStalledTheNewcomerIsRefusedAsBefore() throws Exception {
        bind(2);
        for (String from : new String[] {"127.0.0.2", "127.0.0.3"}) {
            client(from).send("GET " + HOLD + " HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        await(() -> held.size() == 2, "two polls held");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(60));
        assertThat(newcomer("127.0.0.4")).as("no connection to evict").isEqualTo(-1);
        assertThat(server.evictedIdle()).isZero();
        for (Exchange e : held) {
            e.empty();
        }
    }

    /** A connection as {@link StalledHeads} sees it, for the choice alone. */
    private static final class FakeHead implements StalledHeads.Head {
        final InetAddress from;
        volatile long idleSince;
        final AtomicInteger drops = new AtomicInteger();

        FakeHead(String from, long idleSince) throws IOException {
            this.from = InetAddress.getByName(from);
            this.idleSince = idleSince;
        }

        @Override
        public long unfinishedSince() {
            return 0;
        }

        @Override
        public void drop() {
            drops.incrementAndGet();
        }

        @Override
        public String peer() {
            return from.getHostAddress();
        }

        @Override
        public long idleSince() {
            return idleSince;
        }

        @Override
        public InetAddress from() {
            return from;
        }
    }

    @Test
    void aLookEvictsAnEighthOfTheTopAddressesIdleConnectionsLongestIdleFirst() throws Exception {
        StalledHeads heads = new StalledHeads(() -> "test", 100, 30_000, clock::get);
        List<FakeHead> flood = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            FakeHead h = new FakeHead("127.0.0.2", 1_000 + i);
            flood.add(h);
            heads.opened(h);
        }
        FakeHead honestIdle = new FakeHead("127.0.0.3", 1); // the longest idle of all, but its address has one
        FakeHead busy = new FakeHead("127.0.0.4", 0);
        heads.opened(honestIdle);
        heads.opened(busy);
        assertThat(heads.evictIdle()).isTrue();
        assertThat(heads.evicted()).isEqualTo(5); // 40 / 8
        for (int i = 0; i < 40; i++) {
            assertThat(flood.get(i).drops.get()).as("flood connection " + i).isEqualTo(i < 5 ? 1 : 0);
        }
        assertThat(honestIdle.drops.get() + busy.drops.get()).isZero();
        for (int i = 5; i < 40; i++) {
            heads.closed(flood.get(i));
        }
        assertThat(heads.evictIdle()).as("then the address with most idle is the other one").isTrue();
        assertThat(honestIdle.drops.get()).isEqualTo(1);
        assertThat(heads.evictIdle()).as("nothing idle left").isFalse();
        assertThat(busy.drops.get()).isZero();
    }
}
