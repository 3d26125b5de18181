package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sessionj.cli.ProtocolCommandTest.sj;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.examples.deploy.DeploymentException;
import org.sessionj.examples.deploy.ProcessesDeployment;
import org.sessionj.examples.deploy.Progress;
import org.sessionj.examples.deploy.RankProgram;
import org.sessionj.examples.pi.PiProgram;

/** One small run of each demo with its ranks in child JVMs (each starts in a second or so). */
@Timeout(120)
class ProcessesDemoTest {
    @Test
    void piWithTwoChildProcesses() {
        ProtocolCommandTest.Run run = sj("demo", "pi", "--deploy", "processes", "--workers", "2", "--size", "10000");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("deploy processes: 3 ranks").contains("verified");
    }

    @Test
    void jacobiPipelineWithTwoChildProcesses() {
        ProtocolCommandTest.Run run = sj("demo", "jacobi", "--deploy", "processes", "--workers", "2", "--pipeline",
                "--size", "12", "--steps", "20");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("pipeline").contains("deploy processes: 3 ranks")
                .contains("verified: bitwise equal");
    }

    @Test
    void nbodyRingWithOneChildProcess() {
        ProtocolCommandTest.Run run = sj("demo", "nbody", "--deploy", "processes", "--workers", "2", "--size", "10",
                "--steps", "2");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("deploy processes: 2 ranks").contains("verified");
    }

    @Test
    void aChildThatFailsFailsTheRunNamingTheRankAndItsMessage() {
        RankProgram<PiProgram.Outcome> program = new PiProgram(1, 10);
        assertThatThrownBy(() -> ProcessesDeployment.run(program, "org.sessionj.NoSuchMain",
                (rank, address) -> List.of(), Duration.ofSeconds(20), Progress.NONE))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("rank 1 exited with status 1")
                .hasMessageContaining("org.sessionj.NoSuchMain");
    }
}
