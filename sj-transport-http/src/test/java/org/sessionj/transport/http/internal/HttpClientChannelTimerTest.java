package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpClientChannel}'s answer timeout: requests answered in time schedule no timer each (one
 * {@link LazyDeadline} timer for the channel), and a request that gets no answer still fails in time.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpClientChannelTimerTest {
    @Test
    void fiftyRequestsAnsweredInTimeScheduleOneAnswerTimer() throws Exception {
        HttpSettings settings = HttpSettings.fromSystemProperties();
        TunnelServer server = EmptyServer.bind();
        HttpClientChannel channel = new HttpClientChannel(new Endpoint("127.0.0.1", server.port(), null, settings));
        try {
            for (int i = 0; i < 50; i++) {
                FullHttpResponse response = channel.send(channel.request(HttpMethod.GET, "/anything?i=" + i, null), 20_000)
                        .get(10, TimeUnit.SECONDS);
                assertThat(response.status().code()).isEqualTo(204);
                response.release();
            }
            int timers = channel.loop().submit(channel::answerTimersScheduled).get(10, TimeUnit.SECONDS);
            assertThat(timers).as("one timer for the channel, not one per request").isEqualTo(1);
        } finally {
            channel.close();
            server.close();
        }
    }

    @Test
    void aShortTimeoutAfterALongOneOnTheSameChannelStillFailsInTime() throws Exception {
        HttpSettings settings = HttpSettings.fromSystemProperties();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // A peer that answers the first request and never the second.
            Thread peer = Thread.ofVirtual().start(() -> {
                try (Socket s = listener.accept()) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                    while (!in.readLine().isEmpty()) {
                        // the first request's head
                    }
                    s.getOutputStream().write("HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().flush();
                    while (in.readLine() != null) {
                        // the second request: never answered
                    }
                } catch (IOException e) {
                    // the client closed
                }
            });
            HttpClientChannel channel = new HttpClientChannel(new Endpoint("127.0.0.1", listener.getLocalPort(), null,
                    settings));
            try {
                // Arms the channel's timer ten minutes ahead.
                channel.send(channel.request(HttpMethod.GET, "/first", null), 600_000).get(10, TimeUnit.SECONDS).release();
                long start = System.nanoTime();
                var second = channel.send(channel.request(HttpMethod.GET, "/second?x=1", null), 300);
                assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .hasMessageContaining("no answer from").hasMessageContaining("within 300 ms to GET /second");
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
            } finally {
                channel.close();
                peer.join(10_000);
            }
        }
    }
}
