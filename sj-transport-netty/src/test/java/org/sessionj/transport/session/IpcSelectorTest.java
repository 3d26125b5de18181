package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
 * The selector over ipc sessions: set up over TCP, moved to ipc (the only session transport that
 * is not TCP), and served by one thread that is woken by the ipc doorbell, not by polling.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IpcSelectorTest {

    /** A stream of numbers, then their sum back. */
    @Protocol("cbegin.![!<int>]*.?(int)")
    public interface Numbers {
    }

    @Protocol("^(Numbers)")
    public interface NumbersServer {
    }

    @Test
    void oneThreadServesSeveralIpcSessionsThroughTheSelector() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("ipc", "tcp").batchBytes(64).build());
        int sessions = 4;
        int items = 300;
        try (SJServerSocket server = runtime.serverSocket(NumbersServer.class, 0); SJSelector selector = SJSelector.open()) {
            List<CompletableFuture<Integer>> clients = new ArrayList<>();
            for (int k = 0; k < sessions; k++) {
                int step = k + 1;
                clients.add(CompletableFuture.supplyAsync(() -> {
                    try (SJSocket s = runtime.service(Numbers.class, "localhost", server.port()).request()) {
                        assertThat(SJRuntime.transportOf(s)).isEqualTo("ipc");
                        int i = 0;
                        // The outputs batch, but the bound of 64 bytes cuts the stream into many frames:
                        // the selector is woken again and again while the clients are still sending.
                        while (s.outwhile(i < items)) {
                            s.send(i * step);
                            i++;
                        }
                        return s.receiveInt();
                    }
                }, r -> Thread.ofVirtual().start(r)));
            }
            List<SJSocket> accepted = new ArrayList<>();
            for (int k = 0; k < sessions; k++) {
                SJSocket s = server.accept(java.time.Duration.ofSeconds(20));
                assertThat(SJRuntime.transportOf(s)).isEqualTo("ipc");
                accepted.add(s);
                selector.register(s);
            }
            java.util.Map<SJSocket, Integer> sums = new java.util.HashMap<>();
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
}
