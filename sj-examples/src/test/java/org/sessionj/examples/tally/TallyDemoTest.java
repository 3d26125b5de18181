package org.sessionj.examples.tally;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/** The tally demo: one server thread with a typed selector serving several clients' rounds at once. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TallyDemoTest {
    private static final Executor VIRTUAL = r -> Thread.ofVirtual().start(r);

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"shm", "tcp"})
    void oneThreadKeepsTheTotalOfEveryClientsAdditions(String transport) throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports(transport).build());
        try (SJServerSocket server = runtime.serverSocket(TallyProtocols.TallyService.class, 0)) {
            CompletableFuture<Long> total = CompletableFuture.supplyAsync(() -> TallyServer.serve(server, 3), VIRTUAL);
            List<CompletableFuture<List<Integer>>> clients = new ArrayList<>();
            for (int c = 1; c <= 3; c++) {
                int[] numbers = {c, 10 * c, 100 * c, 1000 * c};
                clients.add(CompletableFuture.supplyAsync(() -> TallyClient.add(
                        runtime.service(TallyProtocols.TallyClient.class, "localhost", server.port()), numbers), VIRTUAL));
            }
            assertThat(total.get(30, TimeUnit.SECONDS)).isEqualTo(6 * 1111);
            for (CompletableFuture<List<Integer>> client : clients) {
                List<Integer> totals = client.get(30, TimeUnit.SECONDS);
                assertThat(totals).hasSize(4).isSorted().doesNotHaveDuplicates();
                assertThat(totals.get(3)).isLessThanOrEqualTo(6 * 1111);
            }
        }
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"shm", "tcp"})
    void aClientThatStallsHalfWayThroughAnAdditionHoldsUpNobody(String transport) throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports(transport).build());
        try (SJServerSocket server = runtime.serverSocket(TallyProtocols.TallyService.class, 0)) {
            CompletableFuture<Long> total = CompletableFuture.supplyAsync(() -> TallyServer.serve(server, 2), VIRTUAL);
            CountDownLatch labelSent = new CountDownLatch(1);
            CountDownLatch othersDone = new CountDownLatch(1);
            CompletableFuture<Integer> staller = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(TallyProtocols.TallyClient.class, "localhost", server.port()).request()) {
                    s.outbranch("ADD");
                    labelSent.countDown();
                    await(othersDone); // the server now holds this session at Pending, its number missing
                    s.send(5);
                    int answer = s.receiveInt();
                    s.outbranch("QUIT");
                    return answer;
                }
            }, VIRTUAL);
            assertThat(labelSent.await(30, TimeUnit.SECONDS)).isTrue();
            List<Integer> other = TallyClient.add(
                    runtime.service(TallyProtocols.TallyClient.class, "localhost", server.port()), 1, 2, 3);
            assertThat(other).as("served while the other client's number was missing").containsExactly(1, 3, 6);
            othersDone.countDown();
            assertThat(staller.get(30, TimeUnit.SECONDS)).isEqualTo(11);
            assertThat(total.get(30, TimeUnit.SECONDS)).isEqualTo(11);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other client did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
