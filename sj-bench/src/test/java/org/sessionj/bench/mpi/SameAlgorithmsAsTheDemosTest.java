package org.sessionj.bench.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.sessionj.examples.jacobi.SequentialJacobi;
import org.sessionj.examples.nbody.Particle;
import org.sessionj.examples.nbody.SequentialNBody;

/**
 * The MPI peers of the benchmark comparison (scripts/compare.sh) compute with this package; these
 * tests pin it to the SJ demos' own references, so the comparison keeps timing the same work.
 */
class SameAlgorithmsAsTheDemosTest {

    @Test
    void theJacobiReferenceIsTheDemosSequentialSolveBitForBit() {
        for (int size : new int[] {7, 30}) {
            JacobiReference.Solution mpi = JacobiReference.solve(size, 400);
            SequentialJacobi.Solution demo = SequentialJacobi.solve(size, 400);
            assertThat(mpi.sweeps()).as("sweeps, size %d", size).isEqualTo(demo.iterations());
            double[] rows = new double[demo.rows().length * (size + 2)];
            for (int i = 0; i < demo.rows().length; i++) {
                System.arraycopy(demo.rows()[i], 0, rows, i * (size + 2), size + 2);
            }
            assertThat(mpi.interior()).as("grid, size %d", size).isEqualTo(rows);
        }
    }

    @Test
    void theNBodySystemIsTheDemosSequentialSimulationBitForBit() {
        NBodySystem system = NBodySystem.initial(31, 7);
        double[] mpi = system.simulate(12);
        Particle[] demo = SequentialNBody.simulate(31, 7, 12);
        assertThat(system.bodies()).isEqualTo(demo.length);
        for (int i = 0; i < demo.length; i++) {
            assertThat(new double[] {mpi[4 * i], mpi[4 * i + 1], mpi[4 * i + 2], mpi[4 * i + 3]}).as("body %d", i)
                    .containsExactly(demo[i].x(), demo[i].y(), demo[i].z(), demo[i].mass());
        }
    }

    @Test
    void theVerdictsRejectWhatIsOff() {
        NBodySystem system = NBodySystem.initial(8, 3);
        double[] moved = system.simulate(2);
        assertThat(system.verdict(moved, 2)).startsWith("verified");
        moved[5] += 1e-6;
        assertThat(system.verdict(moved, 2)).startsWith("VERIFICATION FAILED");
    }
}
