package org.sessionj.examples.pi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PiDemoTest {

    @Test
    void threeWorkersEstimatePiWithinTolerance() throws Exception {
        PiDemo.Result result = PiDemo.runOnThreads(3, 200_000);
        assertThat(result.trials()).isEqualTo(600_000);
        assertThat(result.verified()).as("pi ~ %s", result.pi()).isTrue();
    }

    @Test
    void theHitCountDependsOnlyOnTheSeed() {
        assertThat(PiWorker.countHits(10_000, 42)).isEqualTo(PiWorker.countHits(10_000, 42));
        assertThat(PiWorker.countHits(0, 42)).isZero();
    }

    @Test
    void aWrongEstimateIsNotVerified() {
        long trials = 1_000_000;
        assertThat(new PiDemo.Result(3.0, trials, PiMaster.tolerance(trials), 1).verified()).isFalse();
        assertThat(new PiDemo.Result(Math.PI, trials, PiMaster.tolerance(trials), 1).verified()).isTrue();
    }
}
