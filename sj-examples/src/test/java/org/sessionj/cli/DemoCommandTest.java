package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.cli.ProtocolCommandTest.sj;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(60)
class DemoCommandTest {

    @Test
    void jacobiOnThreadsPrintsTheSummaryAndVerifies() {
        ProtocolCommandTest.Run run = sj("demo", "jacobi", "--size", "20", "--steps", "30");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("Jacobi 20×20, at most 30 iterations, master and 2 workers (multicast outwhile),"
                        + " noalias ghost points")
                .contains("30 iterations (stopped at the maximum)")
                .contains("deploy threads: 3 ranks; set-up").contains("connecting the ranks")
                .contains("verified: bitwise equal to a sequential solve");
    }

    @Test
    void otherWorkerCountsUseThePipeline() {
        ProtocolCommandTest.Run run = sj("demo", "jacobi", "--workers", "3", "--size", "12", "--steps", "10", "--ordinary");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("pipeline of a master and 3 workers (iteration chaining), ordinary ghost points")
                .contains("deploy threads: 4 ranks");
    }

    @Test
    void nbodyAndPiOnThreadsVerify() {
        ProtocolCommandTest.Run nbody = sj("demo", "nbody", "--workers", "2", "--size", "20", "--steps", "3");
        assertThat(nbody.status()).as(nbody.err()).isZero();
        assertThat(nbody.out()).contains("n-Body: 20 bodies on a ring of 2 workers, 3 steps, noalias")
                .contains("verified: largest position difference");
        ProtocolCommandTest.Run pi = sj("demo", "pi", "--workers", "3", "--size", "100000");
        assertThat(pi.status()).as(pi.err()).isZero();
        assertThat(pi.out()).contains("3 workers, 300,000 points").contains("verified: error");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "demo nbody --workers 1 | expected a ring of at least 2 workers but found 1",
            "demo jacobi --workers 0 | expected at least 1 worker but found 0",
            "demo jacobi --size 2 | expected a grid size of at least 3",
            "demo jacobi --ordinary --noalias | expected at most one of --ordinary and --noalias but found both",
            "demo pi --size 0 | expected at least 1 point per worker but found 0",
            "demo pi --deploy cloud | expected one of [threads, processes, slurm]",
            "demo pi --timeout 0 | expected --timeout of at least 1 second but found 0",
            "demo pi --deploy processes --rank 1 | Unknown options: '--rank'",
            "demo pi --steps 3 | Unknown options: '--steps'",
            "demo | missing subcommand: expected pi, jacobi or nbody"})
    void badOptionsExitWithTwoAndSayWhatWasExpected(String command, String message) {
        ProtocolCommandTest.Run run = sj(command.split(" "));
        assertThat(run.status()).as(run.out()).isEqualTo(2);
        assertThat(run.err()).contains(message);
    }

    @Test
    void slurmWithoutAClusterEnvironmentFailsWithOne() {
        ProtocolCommandTest.Run run = sj("demo", "pi", "--deploy", "slurm");
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("expected SLURM_PROCID and SLURM_NTASKS");
    }
}
