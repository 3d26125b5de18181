package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;

@Timeout(60)
class ConnectingTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** Connects {@code rank} on a thread of its own; the future ends when its connect() returns or fails. */
    private static CompletableFuture<Void> connect(int rank, SJServerSocket server, EndpointTable table, Duration timeout) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofVirtual().name("test-rank-" + rank).start(() -> {
            try {
                Connecting.connect(rank, server, table, timeout);
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static EndpointTable table(List<SJServerSocket> servers, int... portOf) {
        Endpoint[] endpoints = new Endpoint[portOf.length];
        for (int r = 0; r < portOf.length; r++) {
            endpoints[r] = new Endpoint(r, "127.0.0.1", new int[] {4711, servers.get(portOf[r]).port()});
        }
        return new EndpointTable(endpoints);
    }

    private static Throwable failureOf(CompletableFuture<Void> rank) throws Exception {
        try {
            rank.get(40, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("expected the rank to fail but it connected");
    }

    @Test
    void everyRankConnectsWithEveryOtherAndPassesTheBarrier() throws Exception {
        List<SJServerSocket> servers = new ArrayList<>();
        try {
            for (int r = 0; r < 4; r++) {
                servers.add(Connecting.open());
            }
            EndpointTable table = table(servers, 0, 1, 2, 3);
            List<CompletableFuture<Void>> ranks = new ArrayList<>();
            for (int r = 3; r >= 0; r--) {
                ranks.add(connect(r, servers.get(r), table, WAIT));
            }
            for (CompletableFuture<Void> rank : ranks) {
                rank.get(40, TimeUnit.SECONDS);
            }
        } finally {
            servers.forEach(SJServerSocket::close);
        }
    }

    @Test
    void rankZeroWaitsForEveryRankAndNamesTheOnesThatNeverCame() throws Exception {
        List<SJServerSocket> servers = new ArrayList<>();
        try {
            for (int r = 0; r < 3; r++) {
                servers.add(Connecting.open());
            }
            EndpointTable table = table(servers, 0, 1, 2);
            // rank 2 never starts: rank 0 must not pass the barrier without it
            CompletableFuture<Void> zero = connect(0, servers.get(0), table, Duration.ofSeconds(3));
            CompletableFuture<Void> one = connect(1, servers.get(1), table, Duration.ofSeconds(3));
            assertThat(failureOf(zero)).isInstanceOf(DeploymentException.class)
                    .message().containsPattern("rank 0: not every rank connected within 3 s \\(not connected: \\[(1, )?2\\],"
                            + " not ready: \\[1, 2\\]\\)");
            assertThat(failureOf(one)).isInstanceOf(DeploymentException.class).hasMessageContaining("rank 1");
        } finally {
            servers.forEach(SJServerSocket::close);
        }
    }

    @Test
    void aRankAnsweringForAnotherIsNamed() throws Exception {
        List<SJServerSocket> servers = new ArrayList<>();
        try {
            for (int r = 0; r < 2; r++) {
                servers.add(Connecting.open());
            }
            // the table sends rank 0 to its own port for rank 1: it meets itself
            EndpointTable table = table(servers, 0, 0);
            CompletableFuture<Void> zero = connect(0, servers.get(0), table, Duration.ofSeconds(5));
            assertThat(failureOf(zero)).isInstanceOf(DeploymentException.class)
                    .hasMessageContaining("rank 0 expected a rank between 0 and 1 other than itself but found 0");
        } finally {
            servers.forEach(SJServerSocket::close);
        }
    }

    @Test
    void aTallyRefusesRepeatsStrangersAndReadiesOutsideRankZero() {
        Connecting.Tally one = new Connecting.Tally(1, 3, System.nanoTime() + WAIT.toNanos(), WAIT);
        one.connected(0);
        assertThatThrownBy(() -> one.connected(0)).isInstanceOf(DeploymentException.class)
                .hasMessage("rank 0 connected twice to rank 1");
        assertThatThrownBy(() -> one.connected(3)).isInstanceOf(DeploymentException.class)
                .hasMessage("rank 1 expected a rank between 0 and 2 other than itself but found 3");
        assertThatThrownBy(() -> one.ready(2)).isInstanceOf(DeploymentException.class)
                .hasMessage("rank 2 said READY to rank 1: only rank 0 holds the barrier");
        assertThat(one.done()).isFalse();
        one.connected(2);
        assertThat(one.done()).as("rank 1 waits for no READY").isTrue();

        Connecting.Tally zero = new Connecting.Tally(0, 2, System.nanoTime() + WAIT.toNanos(), WAIT);
        zero.connected(1);
        assertThat(zero.done()).as("rank 0 also waits for every READY").isFalse();
        zero.ready(1);
        assertThatThrownBy(() -> zero.ready(1)).isInstanceOf(DeploymentException.class)
                .hasMessage("rank 1 said READY twice to rank 0");
        assertThat(zero.done()).isTrue();
    }

    /**
     * hostile22 H22-3: a session with a rank's connect port that never sends its rank does not hold the rank past its
     * timeout. Before, the rank number was received without a deadline: connect() never returned (this test's 60 s).
     */
    @Test
    void aSessionThatNeverSendsItsRankDoesNotHoldARankPastItsTimeout() throws Exception {
        List<SJServerSocket> servers = new ArrayList<>();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        try {
            for (int r = 0; r < 2; r++) {
                servers.add(Connecting.open());
            }
            EndpointTable table = table(servers, 0, 1);
            CompletableFuture<String> silent = new CompletableFuture<>();
            org.sessionj.api.SJService stranger = Connecting.service(table, 0);
            java.util.concurrent.CountDownLatch agreed = new java.util.concurrent.CountDownLatch(1);
            Thread.ofVirtual().start(() -> silent.complete(sayLate(stranger, agreed, release)));
            assertThat(agreed.await(20, TimeUnit.SECONDS)).as("the stranger's session agreed").isTrue();
            // rank 1 never starts; the stranger's session, queued already, is the first one rank 0 takes
            CompletableFuture<Void> zero = connect(0, servers.get(0), table, Duration.ofSeconds(2));
            assertThat(failureOf(zero)).isInstanceOf(DeploymentException.class)
                    .hasMessageContaining("rank 0: not every rank connected within 2 s");
            release.countDown();
            assertThat(silent.get(20, TimeUnit.SECONDS)).startsWith("failed");
        } finally {
            release.countDown();
            servers.forEach(SJServerSocket::close);
        }
    }

    /**
     * Takes a session with a rank's connect port, says so ({@code agreed}), and sends its rank only once {@code release}
     * is counted down.
     */
    private static String sayLate(@org.sessionj.api.Session(protocol = RankToRank.class) org.sessionj.api.SJService peer,
            java.util.concurrent.CountDownLatch agreed, java.util.concurrent.CountDownLatch release) {
        String outcome = "";
        try (org.sessionj.api.SJSocket s = peer.request()) {
            agreed.countDown();
            release.await();
            s.send(1);
            s.outbranch("CONNECT");
            outcome = "answered by rank " + s.receiveInt();
        } catch (org.sessionj.api.SJIOException e) {
            outcome = "failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = "interrupted";
        }
        return outcome;
    }
}
