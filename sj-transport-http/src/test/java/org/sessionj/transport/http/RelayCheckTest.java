package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A requester's relay check ({@code canReach} in relay mode: {@code GET /target}) waits for the relay as
 * long as the set-up attempt it belongs to allows, and no longer. Before, it had a fixed bound of 2 s: a
 * cold requester's first request to a relay on a loaded machine took longer, so the requester gave up on a
 * relay that was up with the server registered ({@code FirewallRealTest}: "http: cannot reach it").
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RelayCheckTest {
    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    private final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    private static HttpTransport via(int relayPort) {
        return new HttpTransport(TestConfigs.of("sessionj.http.relay", "127.0.0.1:" + relayPort,
                "sessionj.http.vanishMillis", "60000"));
    }

    @Test
    void aRelayThatAnswersLaterThanTwoSecondsIsWaitedForWithinTheAttempt() throws Exception {
        // The relay stands for a cold requester's first request on a loaded machine: its answer comes after
        // the 2 s the check used to allow, well within the attempt's minute.
        FakeRelay relay = new FakeRelay("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 2_500);
        assertThat(via(relay.port()).canReach("10.0.0.4", 4000, MINUTE)).isTrue();
        assertThat(relay.asked).containsExactly("GET /sessionj/v1/target?name=10.0.0.4%3A4000 HTTP/1.1");
    }

    @Test
    void aRelayThatHasNoSuchServerIsANo() throws Exception {
        FakeRelay relay = new FakeRelay("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", 0);
        assertThat(via(relay.port()).canReach("10.0.0.4", 4000, MINUTE)).isFalse();
    }

    @Test
    void aRelayThatNeverAnswersIsANoWhenTheAttemptsTimeIsUpNotTheVanishTime() throws Exception {
        FakeRelay relay = new FakeRelay(null, 0);
        // vanishMillis is a minute and the test has 30 s: the attempt's 300 ms is what ends the wait.
        assertThat(via(relay.port()).canReach("10.0.0.4", 4000, TimeUnit.MILLISECONDS.toNanos(300))).isFalse();
        assertThat(relay.asked).hasSize(1);
    }

    @Test
    void aRelayPortThatRefusesIsANoAtOnce() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        // A minute allowed, 30 s for the test: the refusal answers, not a clock.
        assertThat(via(closed).canReach("10.0.0.4", 4000, MINUTE)).isFalse();
    }

    @Test
    void theWaitIsTheAttemptsTimeCappedByTheVanishTime() {
        assertThat(TunnelTransport.checkMillis(TimeUnit.SECONDS.toNanos(3), 15_000)).isEqualTo(3_000);
        assertThat(TunnelTransport.checkMillis(TimeUnit.SECONDS.toNanos(30), 15_000)).isEqualTo(15_000);
        assertThat(TunnelTransport.checkMillis(-1, 15_000)).as("no bound given: the vanish time").isEqualTo(15_000);
        assertThat(TunnelTransport.checkMillis(10, 15_000)).as("never 0, which would mean no deadline").isEqualTo(1);
    }

    /**
     * A relay that reads one request head per connection, records its request line, and answers
     * {@code answer} after {@code delayMillis} (null: never; the connection is held until the test ends).
     */
    private final class FakeRelay {
        final List<String> asked = new CopyOnWriteArrayList<>();
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final CountDownLatch ended = new CountDownLatch(1);

        FakeRelay(String answer, long delayMillis) throws IOException {
            opened.add(server);
            opened.add(ended::countDown);
            Thread.ofPlatform().daemon().name("fake-relay").start(() -> {
                try {
                    while (true) {
                        Socket client = server.accept();
                        opened.add(client);
                        asked.add(head(client.getInputStream()));
                        if (answer == null) {
                            continue;
                        }
                        ended.await(delayMillis, TimeUnit.MILLISECONDS); // the slow relay: its answer's delay
                        client.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
                        client.getOutputStream().flush();
                    }
                } catch (IOException | InterruptedException e) {
                    // closed
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        /** Reads a request head, returning its first line. */
        private static String head(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            int last = 0;
            for (int b; (b = in.read()) >= 0; ) {
                head.append((char) b);
                last = (last << 8 | b) & 0xffffffff;
                if (last == 0x0d0a0d0a) {
                    break;
                }
            }
            int end = head.indexOf("\r\n");
            return end < 0 ? head.toString() : head.substring(0, end);
        }
    }
}
