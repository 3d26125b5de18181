package org.sessionj.examples.jacobi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sessionj.examples.deploy.Progress;
import org.sessionj.examples.deploy.RankProgram;
import org.sessionj.examples.deploy.ThreadsDeployment;

@Timeout(60)
class JacobiTest {

    private static JacobiProgram.Outcome runOnThreads(JacobiProgram program) throws InterruptedException {
        return ThreadsDeployment.run(program, Duration.ofSeconds(30), Progress.NONE).outcome();
    }

    @ParameterizedTest(name = "{0} workers, pipeline={1}, {2}")
    @CsvSource({
            "2, false, NOALIAS", "2, false, ORDINARY",
            "1, true, NOALIAS", "1, true, ORDINARY",
            "2, true, NOALIAS", "2, true, ORDINARY",
            "3, true, NOALIAS", "3, true, ORDINARY"})
    void theDistributedGridIsBitwiseTheSequentialOne(int workers, boolean pipeline, Variant variant) throws Exception {
        JacobiProgram program = new JacobiProgram(workers, 17, 60, variant, pipeline);
        JacobiProgram.Outcome outcome = runOnThreads(program);
        SequentialJacobi.Solution reference = SequentialJacobi.solve(17, 60);

        assertThat(outcome.solution().iterations()).isEqualTo(60);
        assertThat(outcome.solution().rows()).isDeepEqualTo(reference.rows());
        assertThat(outcome.verify().passed()).as(outcome.verify().description()).isTrue();
    }

    @Test
    void aRunThatConvergesStopsAtTheSameIterationAsTheSequentialSolve() throws Exception {
        JacobiProgram.Outcome outcome = runOnThreads(new JacobiProgram(2, 6, 100_000, Variant.NOALIAS, false));
        SequentialJacobi.Solution reference = SequentialJacobi.solve(6, 100_000);

        assertThat(reference.iterations()).isBetween(2, 99_999);
        assertThat(outcome.solution().iterations()).isEqualTo(reference.iterations());
        assertThat(outcome.verify().passed()).isTrue();
    }

    @Test
    void rowsThatDoNotDivideEvenlyGoToTheLastPart() throws Exception {
        JacobiProgram.Outcome outcome = runOnThreads(new JacobiProgram(3, 11, 25, Variant.ORDINARY, true));
        assertThat(outcome.solution().rows()).hasNumberOfRows(11);
        assertThat(outcome.verify().passed()).isTrue();
    }

    @Test
    void theSequentialSolveMovesHeatInFromTheBoundary() {
        SequentialJacobi.Solution solution = SequentialJacobi.solve(8, 50);
        assertThat(solution.rows()[0][4]).isGreaterThan(solution.rows()[7][4]).isPositive();
        assertThat(solution.rows()[0][0]).isEqualTo(0.5);      // boundary column kept
    }

    @Test
    void verificationRejectsAChangedValueOrIterationCount() {
        SequentialJacobi.Solution reference = SequentialJacobi.solve(9, 20);
        double[][] changed = new double[reference.rows().length][];
        for (int i = 0; i < changed.length; i++) {
            changed[i] = reference.rows()[i].clone();
        }
        changed[4][5] = Math.nextUp(changed[4][5]);

        RankProgram.Verification oneUlp = JacobiProgram.Outcome.compare(new SequentialJacobi.Solution(changed, 20), reference);
        assertThat(oneUlp.passed()).isFalse();
        assertThat(oneUlp.description()).contains("1 grid values differ");
        RankProgram.Verification count = JacobiProgram.Outcome.compare(
                new SequentialJacobi.Solution(reference.rows(), 19), reference);
        assertThat(count.passed()).isFalse();
        assertThat(count.description()).contains("expected 20 iterations").contains("did 19");
    }

    @Test
    void badConfigurationsNameWhatWasExpected() {
        assertThatThrownBy(() -> new JacobiProgram(3, 20, 10, Variant.NOALIAS, false))
                .hasMessageContaining("expected 2 workers").hasMessageContaining("found 3");
        assertThatThrownBy(() -> new JacobiProgram(0, 20, 10, Variant.NOALIAS, true))
                .hasMessageContaining("expected at least 1 worker but found 0");
        assertThatThrownBy(() -> new JacobiProgram(4, 4, 10, Variant.NOALIAS, true))
                .hasMessageContaining("expected a grid size of at least 5").hasMessageContaining("found 4");
        assertThatThrownBy(() -> new JacobiProgram(2, 20, 0, Variant.NOALIAS, false))
                .hasMessageContaining("expected at least 1 iteration but found 0");
    }
}
