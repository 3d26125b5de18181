package org.sessionj.transport.http.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.http.RelaySessions;
import org.sessionj.transport.http.session.HttpProtocols.BurstClient;
import org.sessionj.transport.http.session.HttpProtocols.BurstServer;
import org.sessionj.transport.http.session.HttpProtocols.SinkClient;
import org.sessionj.transport.http.session.HttpProtocols.SinkServer;

/**
 * hostile17 H1: messages a side sends just before it closes the session (some larger than
 * {@code sessionj.http.streamBytes}) all reach the peer, over http direct and through the relay, with
 * WebSocket and with long polling, whichever side sends; the server closes its server socket at once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpDrainAtCloseTest extends RelaySessions {
    private static final int MESSAGES = 30;
    /** Message {@code i}: every tenth 3 MiB (three times the stream buffer), the others 1 KiB; it starts with i. */
    private static byte[] message(int i) {
        byte[] bytes = new byte[i % 10 == 9 ? 3 << 20 : 1024];
        bytes[0] = (byte) i;
        return bytes;
    }

    private static void check(byte[] received, int i) {
        assertThat(received.length).as("message %d's size", i).isEqualTo(message(i).length);
        assertThat(received[0]).as("message %d's first byte", i).isEqualTo((byte) i);
    }

    private static String host(boolean viaRelay) {
        if (viaRelay) {
            useRelay();
            return HIDDEN;
        }
        return "localhost";
    }

    @ParameterizedTest(name = "relay {0}, websocket {1}")
    @CsvSource({"false,true", "false,false", "true,true", "true,false"})
    void whatTheRequesterSendsBeforeItClosesArrives(boolean viaRelay, boolean websocket) throws Exception {
        System.setProperty("sessionj.http.websocket", String.valueOf(websocket));
        String host = host(viaRelay);
        SJRuntime http = runtime();
        SJServerSocket server = http.serverSocket(BurstServer.class, 0);
        CompletableFuture<Integer> served = CompletableFuture.supplyAsync(() -> {
            int count = 0;
            try (SJServerSocket closing = server; SJSocket s = closing.accept(Duration.ofSeconds(30))) {
                while (s.inwhile()) {
                    check(s.receive(), count++);
                }
                return count;
            } catch (Exception e) {
                throw new IllegalStateException("after " + count + " messages", e);
            }
        });
        try (SJSocket s = http.service(BurstClient.class, host, server.port()).request()) {
            for (int i = 0; i < MESSAGES; i++) {
                s.outwhile(true);
                s.send(message(i));
            }
            s.outwhile(false);
        }
        assertThat(served.get(60, TimeUnit.SECONDS)).isEqualTo(MESSAGES);
    }

    @ParameterizedTest(name = "relay {0}, websocket {1}")
    @CsvSource({"false,true", "false,false", "true,true", "true,false"})
    void whatTheServerSendsBeforeItClosesArrives(boolean viaRelay, boolean websocket) throws Exception {
        System.setProperty("sessionj.http.websocket", String.valueOf(websocket));
        String host = host(viaRelay);
        SJRuntime http = runtime();
        SJServerSocket server = http.serverSocket(SinkServer.class, 0);
        CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
            try (SJServerSocket closing = server; SJSocket s = closing.accept(Duration.ofSeconds(30))) {
                for (int i = 0; i < MESSAGES; i++) {
                    s.outwhile(true);
                    s.send(message(i));
                }
                s.outwhile(false);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        int count = 0;
        try (SJSocket s = http.service(SinkClient.class, host, server.port()).request()) {
            while (s.inwhile()) {
                check(s.receive(), count++);
            }
        }
        assertThat(count).isEqualTo(MESSAGES);
        served.get(60, TimeUnit.SECONDS);
    }

    private static SJRuntime runtime() {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("http")
                .initiationTimeout(Duration.ofSeconds(20)).build());
    }
}
