package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;

/** A whole ping session of the TCP and TLS tests: {@code rounds} increments, then "done", checked on both ends. */
public final class PingRounds {
    private PingRounds() {
    }

    /** Serves one session on {@code server} and runs it from {@code client}, asserting every reply. */
    public static void run(SJRuntime client, SJServerSocket server, int rounds) throws Exception {
        CompletableFuture<Integer> served = CompletableFuture.supplyAsync(() -> {
            try (SJSocket s = server.accept()) {
                int count = 0;
                while (s.inwhile()) {
                    s.send(s.receiveInt() + 1);
                    count++;
                }
                s.send("done");
                return count;
            }
        });
        try (SJSocket s = client.service(SessionProtocols.PingClient.class, "localhost", server.port()).request()) {
            for (int i = 0; i < rounds; i++) {
                s.outwhile(true);
                s.send(i);
                assertThat(s.receiveInt()).isEqualTo(i + 1);
            }
            s.outwhile(false);
            assertThat((String) s.receive()).isEqualTo("done");
        }
        assertThat(served.get(30, TimeUnit.SECONDS)).isEqualTo(rounds);
    }
}
