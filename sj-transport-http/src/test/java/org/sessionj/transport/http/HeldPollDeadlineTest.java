package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
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
 * A held poll is answered "nothing new" (204) once the poll interval passed, never before: also the
 * next poll held on the same connection, whose interval starts later than the timer the connection
 * armed for the first (one re-armed timer per connection, not one per held request).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HeldPollDeadlineTest {
    private static final int POLL_MILLIS = 400;
    private static final HttpSettings SETTINGS = new HttpSettings(POLL_MILLIS, 64 << 10, 256 << 10, 256 << 10, 15_000,
            true, 16 << 20);
    private HttpRelay relay;

    @BeforeEach
    void start() throws IOException {
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), null, SETTINGS, RelayLimits.defaults());
    }

    @AfterEach
    void stop() {
        relay.close();
    }

    @Test
    void eachHeldPollIsAnsweredAfterItsOwnPollInterval() throws IOException {
        try (RawHttp control = new RawHttp(relay.port(), 10_000); RawHttp requester = new RawHttp(relay.port(), 10_000);
                RawHttp server = new RawHttp(relay.port(), 10_000)) {
            String id = Wire.newToken();
            assertThat(control.exchange("POST", Wire.LISTEN + "?id=" + id + "&port=4300&name=deadline&register=1")
                    .status()).isEqualTo(200);
            String token = control.exchange("POST", Wire.CONNECT + "?target=deadline:4300").body().strip();
            String down = Wire.sessionPath(token, "down");

            long first = System.nanoTime();
            RawHttp.Response empty = requester.exchange("GET", down + "?ack=0");
            long firstTook = System.nanoTime() - first;
            assertThat(empty.status()).isEqualTo(204);
            assertThat(firstTook).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS));

            // The next poll on the same connection starts its own interval.
            long second = System.nanoTime();
            RawHttp.Response again = requester.exchange("GET", down + "?ack=0");
            assertThat(again.status()).isEqualTo(204);
            assertThat(System.nanoTime() - second).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS));

            // A poll answered early with bytes, then one held: the second waits its full interval, even
            // though the connection's timer was armed for the first.
            String serverToken = control.exchange("POST", Wire.LISTEN + "?id=" + id + "&port=4300&name=deadline")
                    .body().strip();
            byte[] ping = "ping".getBytes(StandardCharsets.UTF_8);
            requester.send("GET " + down + "?ack=0 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
            assertThat(server.exchange("POST", Wire.sessionPath(serverToken, "up") + "?offset=0", ping).status())
                    .isEqualTo(204);
            RawHttp.Response withBytes = requester.read();
            assertThat(withBytes.status()).isEqualTo(200);
            assertThat(withBytes.body()).isEqualTo("ping");
            long third = System.nanoTime();
            RawHttp.Response held = requester.exchange("GET", down + "?ack=4");
            assertThat(held.status()).isEqualTo(204);
            assertThat(System.nanoTime() - third).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS));
        }
    }
}
