package org.sessionj.examples.pi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.examples.deploy.Progress;
import org.sessionj.examples.deploy.RankRunner;
import org.sessionj.examples.deploy.ThreadsDeployment;

@Timeout(60)
class PiDemoTest {

    @Test
    void threeWorkersEstimatePiWithinTolerance() throws Exception {
        RankRunner.Timed<PiProgram.Outcome> run = ThreadsDeployment.run(new PiProgram(3, 200_000), Duration.ofSeconds(30),
                Progress.NONE);
        assertThat(run.outcome().trials()).isEqualTo(600_000);
        assertThat(run.outcome().verify().passed()).as("pi ~ %s", run.outcome().pi()).isTrue();
    }

    @Test
    void theEstimateIsTheSameAsTheWorkersHitCountsGive() throws Exception {
        RankRunner.Timed<PiProgram.Outcome> run = ThreadsDeployment.run(new PiProgram(2, 10_000), Duration.ofSeconds(30),
                Progress.NONE);
        long hits = PiWorker.countHits(10_000, 0x5eed_0000L) + PiWorker.countHits(10_000, 0x5eed_0001L);
        assertThat(run.outcome().pi()).isEqualTo(PiMaster.estimate(hits, 20_000));
    }

    @Test
    void theHitCountDependsOnlyOnTheSeed() {
        assertThat(PiWorker.countHits(10_000, 42)).isEqualTo(PiWorker.countHits(10_000, 42));
        assertThat(PiWorker.countHits(0, 42)).isZero();
    }

    @Test
    void aWrongEstimateIsNotVerified() {
        long trials = 1_000_000;
        assertThat(new PiProgram.Outcome(2, trials, 3.0).verify().passed()).isFalse();
        assertThat(new PiProgram.Outcome(2, trials, Math.PI).verify().passed()).isTrue();
    }
}
