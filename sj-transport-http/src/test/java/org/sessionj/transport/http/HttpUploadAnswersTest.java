package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.http.relay.HttpRelay;

/**
 * What wire 2 saves: HTTP requests per request-response exchange over long polling, counted by a
 * forwarder in front of the server (direct) or the relay. With upload answers an exchange is one
 * request per side (the upload, answered with the reply), with wire 1 two (the upload and the poll); the
 * link's deferred polls (a timer once a second at most) add a few.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpUploadAnswersTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int WARM_UP = 30;
    private static final int ROUND_TRIPS = 200;

    private static HttpTransport transport(boolean answers, String... more) {
        String[] base = {"sessionj.http.websocket", "false", "sessionj.http.uploadAnswers", String.valueOf(answers)};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return new HttpTransport(TestConfigs.of(all));
    }

    @Test
    void directExchangeTakesOneRequestWithUploadAnswers() throws Exception {
        assertThat(requestsPerRoundTripDirect(true)).isLessThan(1.5);
    }

    @Test
    void directExchangeTakesTwoRequestsWithoutThem() throws Exception {
        assertThat(requestsPerRoundTripDirect(false)).isGreaterThan(1.8);
    }

    @Test
    void relayedExchangeTakesOneRequestPerSideWithUploadAnswers() throws Exception {
        assertThat(requestsPerRoundTripRelayed(true)).isLessThan(3.0);
    }

    @Test
    void relayedExchangeTakesTwoRequestsPerSideWithoutThem() throws Exception {
        assertThat(requestsPerRoundTripRelayed(false)).isGreaterThan(3.6);
    }

    private static double requestsPerRoundTripDirect(boolean answers) throws Exception {
        HttpTransport transport = transport(answers);
        try (ConnectionAcceptor acceptor = transport.listen(0); CountingProxy proxy = new CountingProxy(acceptor.port())) {
            return pingPong(transport, acceptor, proxy, proxy.port());
        }
    }

    private static double requestsPerRoundTripRelayed(boolean answers) throws Exception {
        try (HttpRelay relay = HttpRelay.start(0); CountingProxy proxy = new CountingProxy(relay.port())) {
            HttpTransport transport = transport(answers, "sessionj.http.relay", "localhost:" + proxy.port());
            try (ConnectionAcceptor acceptor = transport.listen(0)) {
                return pingPong(transport, acceptor, proxy, acceptor.port());
            }
        }
    }

    /** Requests per round trip of an int echoed over {@code transport}, after a warm-up; checks every echo. */
    private static double pingPong(HttpTransport transport, ConnectionAcceptor acceptor, CountingProxy proxy, int port)
            throws Exception {
        Connection requester = transport.connect("localhost", port, 10 * SECOND);
        Connection accepter = acceptor.accept(10 * SECOND);
        Thread echo = Thread.ofPlatform().daemon().name("echo").start(() -> {
            try {
                while (true) {
                    ByteBuf frame = accepter.read(30 * SECOND);
                    if (frame == null) {
                        return;
                    }
                    accepter.write(frame);
                    accepter.flush();
                }
            } catch (IOException e) {
                // the requester closed
            }
        });
        try {
            long before = 0;
            for (int i = 0; i < WARM_UP + ROUND_TRIPS; i++) {
                if (i == WARM_UP) {
                    before = proxy.requests();
                }
                requester.write(requester.alloc().buffer(4).writeInt(i));
                requester.flush();
                ByteBuf reply = requester.read(30 * SECOND);
                assertThat(reply).as("echo of %d", i).isNotNull();
                assertThat(reply.readInt()).isEqualTo(i);
                reply.release();
            }
            double perRoundTrip = (proxy.requests() - before) / (double) ROUND_TRIPS;
            System.out.printf("%s: %.2f HTTP requests per round trip%n", transport.config().settings().uploadAnswers()
                    ? "upload answers" : "wire 1", perRoundTrip);
            return perRoundTrip;
        } finally {
            requester.close();
            echo.join(10_000);
            accepter.close();
        }
    }
}
