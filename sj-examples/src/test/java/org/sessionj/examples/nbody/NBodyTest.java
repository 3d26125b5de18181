package org.sessionj.examples.nbody;

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
import org.sessionj.examples.jacobi.Variant;

@Timeout(60)
class NBodyTest {

    @ParameterizedTest(name = "{0} workers, {1}")
    @CsvSource({"2, NOALIAS", "2, ORDINARY", "3, NOALIAS", "3, ORDINARY", "4, NOALIAS"})
    void theRingMatchesASequentialSimulation(int workers, Variant variant) throws Exception {
        NBodyProgram program = new NBodyProgram(workers, 31, 12, variant, 7);
        NBodyProgram.Outcome outcome = ThreadsDeployment.run(program, Duration.ofSeconds(30), Progress.NONE).outcome();
        Particle[] reference = SequentialNBody.simulate(31, 7, 12);

        int bodies = 0;
        for (Particle[] block : outcome.blocks()) {
            for (Particle p : block) {
                Particle q = reference[bodies++];
                assertThat(p.x()).isCloseTo(q.x(), org.assertj.core.data.Offset.offset(1e-9));
                assertThat(p.y()).isCloseTo(q.y(), org.assertj.core.data.Offset.offset(1e-9));
                assertThat(p.z()).isCloseTo(q.z(), org.assertj.core.data.Offset.offset(1e-9));
            }
        }
        assertThat(bodies).isEqualTo(31);
        assertThat(outcome.verify().passed()).as(outcome.verify().description()).isTrue();
    }

    @Test
    void theBodiesMove() {
        Particle[] start = SequentialNBody.simulate(10, 7, 0);
        Particle[] later = SequentialNBody.simulate(10, 7, 5);
        assertThat(later[3].x()).isNotEqualTo(start[3].x());
    }

    @Test
    void blocksCoverEveryBodyOnce() {
        assertThat(Bodies.firstOf(10, 0, 3)).isZero();
        assertThat(Bodies.firstOf(10, 1, 3)).isEqualTo(4);
        assertThat(Bodies.firstOf(10, 2, 3)).isEqualTo(7);
        assertThat(Bodies.firstOf(10, 3, 3)).isEqualTo(10);
    }

    @Test
    void verificationRejectsAMovedBodyAndAMissingOne() {
        Particle[] reference = SequentialNBody.simulate(6, 1, 3);
        Particle[] moved = reference.clone();
        moved[2] = new Particle(moved[2].x() + 1e-6, moved[2].y(), moved[2].z(), moved[2].mass());
        RankProgram.Verification off = NBodyProgram.Outcome.compare(new Particle[][] {moved}, reference);
        assertThat(off.passed()).isFalse();
        assertThat(off.description()).contains("NOT within");
        RankProgram.Verification missing = NBodyProgram.Outcome.compare(
                new Particle[][] {java.util.Arrays.copyOf(reference, 5)}, reference);
        assertThat(missing.passed()).isFalse();
        assertThat(missing.description()).contains("expected 6 bodies but the ring has 5");
    }

    @Test
    void aRingNeedsTwoWorkersAndABodyEach() {
        assertThatThrownBy(() -> new NBodyProgram(1, 10, 1, Variant.NOALIAS, 1))
                .hasMessageContaining("expected a ring of at least 2 workers but found 1");
        assertThatThrownBy(() -> new NBodyProgram(4, 3, 1, Variant.NOALIAS, 1))
                .hasMessageContaining("expected at least one body per worker (4) but found 3");
    }
}
