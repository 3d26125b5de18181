package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sessionj.cli.ProtocolCommandTest.sj;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
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

    /**
     * Rank 0 reports (prints, verifies) while the child ranks' JVMs exit, not after: the child here
     * lives until rank 0's report has run, and fails if it never does.
     */
    @Test
    void rankZeroReportsWhileTheChildrenAreStillAlive(@TempDir Path dir) throws Exception {
        Path marker = dir.resolve("reported");
        RankProgram<PiProgram.Outcome> program = new PiProgram(1, 1000);
        String reported = ProcessesDeployment.run(program, LingeringRank.class.getName(),
                (rank, address) -> concat(List.of(marker.toString(), "30"), RankMain.args(rank, address, Duration.ofSeconds(60),
                        ProcessesDeployment.HOST, program)), Duration.ofSeconds(60), Progress.NONE,
                timed -> {
                    try {
                        Files.createFile(marker);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return timed.outcome().verify().passed() ? "verified" : "not verified";
                });
        assertThat(reported).isEqualTo("verified");
    }

    /** A child that fails once it has played its part, around rank 0's report, still fails the run. */
    @Test
    void aChildThatFailsAfterItsPartFailsTheRunThoughRankZeroReported(@TempDir Path dir) {
        Path never = dir.resolve("never-created");
        RankProgram<PiProgram.Outcome> program = new PiProgram(1, 1000);
        assertThatThrownBy(() -> ProcessesDeployment.run(program, LingeringRank.class.getName(),
                (rank, address) -> concat(List.of(never.toString(), "0"), RankMain.args(rank, address,
                        Duration.ofSeconds(60), ProcessesDeployment.HOST, program)), Duration.ofSeconds(60),
                Progress.NONE, timed -> "reported"))
                .isInstanceOf(DeploymentException.class).hasMessageContaining("rank 1 exited with status 3");
    }

    private static List<String> concat(List<String> first, List<String> rest) {
        List<String> all = new ArrayList<>(first);
        all.addAll(rest);
        return all;
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
