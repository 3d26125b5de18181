package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link Phases}: the line's shape (scripts parse it) and the process start time it reports. */
class PhasesTest {

    @Test
    void aLineGivesRankWallClockCpuAndStep() {
        assertThat(Phases.line(2, Instant.ofEpochMilli(1_795_864_815_780L), Duration.ofMillis(412), "registered"))
                .isEqualTo("sj-phase rank=2 wall=1795864815.780 cpu=412 registered");
        assertThat(Phases.line(0, Instant.ofEpochMilli(1_000_005L), Duration.ZERO, "main"))
                .isEqualTo("sj-phase rank=0 wall=1000.005 cpu=0 main");
    }

    @Test
    void onlyAnEmptyOrZeroValueLeavesItOff() {
        assertThat(Phases.on(null)).isFalse();
        assertThat(Phases.on("")).isFalse();
        assertThat(Phases.on("0")).isFalse();
        assertThat(Phases.on("1")).isTrue();
        assertThat(Phases.on("yes")).isTrue();
    }

    @Test
    void theProcessStartIsInThePastAndAfterTheJdksWholeSecondFigure() {
        Instant start = Phases.startInstant().orElseThrow();
        Instant jdk = ProcessHandle.current().info().startInstant().orElseThrow();
        assertThat(start).isBefore(Instant.now());
        // The JDK's figure is the boot time in whole seconds plus the start tick: at most a second off.
        assertThat(Duration.between(jdk, start).abs()).isLessThan(Duration.ofMillis(1_100));
    }
}
