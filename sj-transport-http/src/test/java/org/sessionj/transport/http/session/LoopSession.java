package org.sessionj.transport.http.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;

/** The loop-and-branch session of the http tests, run from both ends with every reply checked. */
public final class LoopSession {
    private LoopSession() {
    }

    /** What each end saw: the transport it ran over. */
    public record Ends(String requester, String accepter) {
    }

    /** Serves one session on {@code server}, runs it from {@code service}, returns the transports. */
    public static Ends run(SJServerSocket server, SJService service, int rounds, boolean sum) throws Exception {
        CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
            try (SJSocket s = server.accept(Duration.ofSeconds(30))) {
                while (s.inwhile()) {
                    s.send(s.receiveInt() * 2);
                }
                switch (s.inbranch()) {
                    case "SUM" -> {
                        int[] values = s.receive();
                        long total = 0;
                        for (int v : values) {
                            total += v;
                        }
                        s.send(total);
                    }
                    case "ECHO" -> s.send("echo: " + s.<String>receive());
                    default -> throw new IllegalStateException();
                }
                return SJRuntime.transportOf(s);
            }
        });
        String requester;
        try (SJSocket s = service.request()) {
            for (int i = 0; i < rounds; i++) {
                s.outwhile(true);
                s.send(i);
                assertThat(s.receiveInt()).isEqualTo(2 * i);
            }
            s.outwhile(false);
            if (sum) {
                s.outbranch("SUM");
                int[] values = new int[1000];
                for (int i = 0; i < values.length; i++) {
                    values[i] = i;
                }
                s.send(values);
                assertThat(s.receiveLong()).isEqualTo(499_500L);
            } else {
                s.outbranch("ECHO");
                s.send("hello");
                assertThat((String) s.receive()).isEqualTo("echo: hello");
            }
            requester = SJRuntime.transportOf(s);
        }
        return new Ends(requester, served.get(30, TimeUnit.SECONDS));
    }
}
