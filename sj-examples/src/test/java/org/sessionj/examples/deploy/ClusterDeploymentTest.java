package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.examples.pi.PiProgram;

@Timeout(30)
class ClusterDeploymentTest {

    @Test
    void theEngineMustStartAsManyRanksAsTheProgramNeeds() {
        ClusterEnvironment env = new ClusterEnvironment(0, 4, "127.0.0.1", 20000, "slurm");
        assertThatThrownBy(() -> ClusterDeployment.run(new PiProgram(2, 10), env, null, Duration.ofSeconds(1),
                Progress.NONE))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("pi as configured needs 3 ranks: expected slurm to start 3 but found 4");
    }

    @Test
    void rankZeroRefusesARendezvousAddressThatIsNotItsOwn() {
        ClusterEnvironment env = new ClusterEnvironment(0, 3, "192.0.2.1", 20000, "slurm");
        assertThatThrownBy(() -> ClusterDeployment.run(new PiProgram(2, 10), env, "127.0.0.1", Duration.ofSeconds(1),
                Progress.NONE))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("rank 0 must serve the rendezvous at 192.0.2.1 but that is not an address of this node")
                .hasMessageContaining("pass --rendezvous HOST:PORT");
    }
}
