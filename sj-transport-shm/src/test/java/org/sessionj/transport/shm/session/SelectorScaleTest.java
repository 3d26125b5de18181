package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.transport.shm.session.TestProtocols.FeedClient;
import org.sessionj.transport.shm.session.TestProtocols.FeedServer;

/** The selector's ready queue: fair (first ready, first served) and indifferent to idle sessions. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SelectorScaleTest {

    /** Accepter side: FeedServer sends iterations; the requester (FeedClient) receives them. */
    private record Pair(List<SJSocket> feeders, List<SJSocket> readers) {
    }

    private static Pair open(SJServerSocket server, int n) throws Exception {
        List<CompletableFuture<SJSocket>> requests = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            requests.add(CompletableFuture.supplyAsync(
                    () -> SJService.create(FeedClient.class, "localhost", server.port()).request(),
                    r -> Thread.ofVirtual().start(r)));
        }
        List<SJSocket> feeders = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            feeders.add(server.accept(Duration.ofSeconds(30)));
        }
        List<SJSocket> readers = new ArrayList<>();
        for (CompletableFuture<SJSocket> request : requests) {
            readers.add(request.get(30, TimeUnit.SECONDS));
        }
        return new Pair(feeders, readers);
    }

    @Test
    void readySessionsAreServedInTheOrderTheyBecameReadyAmongTenThousandIdleOnes() throws Exception {
        int n = 10_000;
        try (SJServerSocket server = SJServerSocket.create(FeedServer.class, 0); SJSelector selector = SJSelector.open()) {
            Pair pair = open(server, n);
            for (SJSocket reader : pair.readers()) {
                selector.register(reader);
            }
            int a = 17;
            int b = 4_242;
            int c = 9_999;
            // a gets two items, b and c one each, in the order b, a, a, c.
            SJSocket feedB = pair.feeders().get(b);
            SJSocket feedA = pair.feeders().get(a);
            SJSocket feedC = pair.feeders().get(c);
            feedB.outwhile(true);
            feedB.send(2);
            feedA.outwhile(true);
            feedA.send(1);
            feedA.outwhile(true);
            feedA.send(11);
            feedC.outwhile(true);
            feedC.send(3);
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                SJSocket s = selector.select(Duration.ofSeconds(10));
                assertThat(s.inwhile()).isTrue();
                order.add(s.receiveInt());
            }
            // a's second item waits behind c, which was ready before a was served: no session is served
            // twice while another is ready.
            assertThat(order).containsExactly(2, 1, 3, 11);
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> selector.select(Duration.ofMillis(50))))
                    .isInstanceOf(SJTimeoutException.class);
            for (SJSocket feeder : pair.feeders()) {
                feeder.outwhile(false);
                feeder.close();
            }
            int ended = 0;
            while (ended < n) {
                SJSocket s = selector.select(Duration.ofSeconds(30));
                assertThat(s.inwhile()).isFalse();
                selector.deregister(s);
                s.close();
                ended++;
            }
        }
    }
}
