package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.pi.MasterToWorker;
import org.sessionj.examples.pi.WorkerToMaster;

@Timeout(30)
class ThreadsDeploymentTest {

    /**
     * Rank 0 asks every other rank for a number; rank {@code failing} throws instead of answering; with
     * {@code marks}, every rank says its sessions are open ({@link RankContext#sessionsOpen}) once rank 0 has asked.
     */
    private record Echo(int ranks, int failing, boolean marks) implements RankProgram<Echo.Sum> {
        Echo(int ranks, int failing) {
            this(ranks, failing, false);
        }

        record Sum(int value) implements RankProgram.Outcome {
            @Override
            public List<String> summary() {
                return List.of("sum " + value);
            }

            @Override
            public Verification verify() {
                return new Verification(true, "");
            }
        }

        @Override
        public String name() {
            return "echo";
        }

        @Override
        public List<Class<?>> accepts(int rank) {
            return rank == 0 ? List.of() : List.of(WorkerToMaster.class);
        }

        @Override
        public Sum run(RankContext context) {
            if (context.rank() == failing) {
                throw new IllegalStateException("rank " + failing + " gives up");
            }
            if (context.rank() != 0) {
                answer(context.server(0), context.rank());
                if (marks) {
                    context.sessionsOpen(); // does nothing on a rank other than 0
                }
                return null;
            }
            int sum = 0;
            for (int rank = 1; rank < ranks; rank++) {
                sum += ask(context.table().service(MasterToWorker.class, rank, 0));
            }
            if (marks) {
                context.sessionsOpen();
                context.sessionsOpen(); // only the first mark counts
            }
            return new Sum(sum);
        }

        private static void answer(@Session(protocol = WorkerToMaster.class) SJServerSocket server, int factor) {
            try (SJSocket master = server.accept()) {
                master.send(master.receiveInt() * factor);
            }
        }

        private static int ask(@Session(protocol = MasterToWorker.class) SJService worker) {
            try (SJSocket socket = worker.request()) {
                socket.send(10);
                return socket.receiveInt();
            }
        }
    }

    @Test
    void everyRankRunsAndRankZeroReturnsTheResult() throws Exception {
        RankRunner.Timed<Echo.Sum> run = ThreadsDeployment.run(new Echo(4, -1), Duration.ofSeconds(20), Progress.NONE);
        assertThat(run.outcome().value()).isEqualTo(10 + 20 + 30);
        assertThat(run.setupNanos()).isPositive();
        assertThat(run.connectNanos()).as("the ranks connect before the program's clock starts").isPositive();
        assertThat(run.openNanos()).as("no mark: the program's sessions are opened inside the timed region").isZero();
    }

    @Test
    void aProgramThatMarksItsSessionsOpenIsTimedFromTheMarkAndTheTimeBeforeItIsReportedApart() throws Exception {
        RankRunner.Timed<Echo.Sum> run = ThreadsDeployment.run(new Echo(3, -1, true), Duration.ofSeconds(20),
                Progress.NONE);
        assertThat(run.outcome().value()).isEqualTo(10 + 20);
        // Rank 0 opened two sessions and ran them to the end before its mark: all of it is outside the timed region.
        assertThat(run.openNanos()).isPositive();
        assertThat(run.runNanos()).isNotNegative();
    }

    @Test
    void aFailingRankFailsTheRunAndIsNamed() {
        assertThatThrownBy(() -> ThreadsDeployment.run(new Echo(3, 2), Duration.ofSeconds(20), Progress.NONE))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("rank 2 failed: rank 2 gives up");
    }
}
