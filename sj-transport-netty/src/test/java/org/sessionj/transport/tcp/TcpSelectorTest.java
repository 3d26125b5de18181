package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * One thread serves several TCP sessions through a selector, in whichever I/O mode
 * {@code sessionj.tcp.io} selects (the build runs this class in both): with blocking sockets the
 * selector's readiness comes from a reader thread per registered connection.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpSelectorTest {

    /** A stream of numbers, then their sum back. */
    @Protocol("cbegin.![!<int>]*.?(int)")
    public interface Numbers {
    }

    @Protocol("^(Numbers)")
    public interface NumbersServer {
    }

    @Test
    void oneThreadServesSeveralTcpSessionsThroughTheSelector() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").batchBytes(64).build());
        int sessions = 4;
        int items = 300;
        try (SJServerSocket server = runtime.serverSocket(NumbersServer.class, 0); SJSelector selector = SJSelector.open()) {
            List<CompletableFuture<Integer>> clients = new ArrayList<>();
            for (int k = 0; k < sessions; k++) {
                int step = k + 1;
                clients.add(CompletableFuture.supplyAsync(() -> {
                    try (SJSocket s = runtime.service(Numbers.class, "localhost", server.port()).request()) {
                        int i = 0;
                        // The bound of 64 bytes cuts the stream into many frames: the selector is
                        // woken again and again while the clients are still sending.
                        while (s.outwhile(i < items)) {
                            s.send(i * step);
                            i++;
                        }
                        return s.receiveInt();
                    }
                }, r -> Thread.ofVirtual().start(r)));
            }
            for (int k = 0; k < sessions; k++) {
                SJSocket s = server.accept(Duration.ofSeconds(20));
                assertThat(SJRuntime.transportOf(s)).isEqualTo("tcp");
                selector.register(s);
            }
            Map<SJSocket, Integer> sums = new HashMap<>();
            int open = sessions;
            while (open > 0) {
                SJSocket s = selector.select();
                if (s.inwhile()) {
                    sums.merge(s, s.receiveInt(), Integer::sum);
                } else {
                    s.send(sums.getOrDefault(s, 0));
                    selector.deregister(s);
                    s.close();
                    open--;
                }
            }
            int expected = items * (items - 1) / 2;
            for (int k = 0; k < sessions; k++) {
                assertThat(clients.get(k).get(20, TimeUnit.SECONDS)).isEqualTo(expected * (k + 1));
            }
        }
    }

    @Test
    void theModeIsTheConfiguredOne() {
        String configured = System.getProperty("sessionj.tcp.io", "eventloop");
        assertThat(new TcpTransport().ioMode())
                .isEqualTo(configured.equals("blocking") ? TcpTransport.IoMode.BLOCKING : TcpTransport.IoMode.EVENT_LOOP);
    }
}
