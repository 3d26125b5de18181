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

    /** Rank 0 asks every other rank for a number; rank {@code failing} throws instead of answering. */
    private record Echo(int ranks, int failing) implements RankProgram<Echo.Sum> {
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
                return null;
            }
            int sum = 0;
            for (int rank = 1; rank < ranks; rank++) {
                sum += ask(context.table().service(MasterToWorker.class, rank, 0));
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
    }

    @Test
    void aFailingRankFailsTheRunAndIsNamed() {
        assertThatThrownBy(() -> ThreadsDeployment.run(new Echo(3, 2), Duration.ofSeconds(20), Progress.NONE))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("rank 2 failed: rank 2 gives up");
    }
}
