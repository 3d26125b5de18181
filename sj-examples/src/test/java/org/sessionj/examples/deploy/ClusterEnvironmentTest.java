package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterEnvironmentTest {

    @Test
    void slurmGivesRankSizeAndTheLaunchNode() {
        ClusterEnvironment env = ClusterEnvironment.from(Map.of("SLURM_PROCID", "2", "SLURM_NTASKS", "4",
                "SLURM_LAUNCH_NODE_IPADDR", "10.200.0.1", "SLURM_STEP_RESV_PORTS", "20010-20013"), null);
        assertThat(env).isEqualTo(new ClusterEnvironment(2, 4, "10.200.0.1", 20010, "slurm"));
    }

    @Test
    void withoutReservedPortsEveryRankOfAStepDerivesTheSamePort() {
        Map<String, String> rank0 = Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_LAUNCH_NODE_IPADDR",
                "10.200.0.1", "SLURM_JOB_ID", "17", "SLURM_STEP_ID", "3");
        Map<String, String> rank1 = Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "SLURM_LAUNCH_NODE_IPADDR",
                "10.200.0.1", "SLURM_JOB_ID", "17", "SLURM_STEP_ID", "3");
        int port = ClusterEnvironment.from(rank0, null).rendezvousPort();
        assertThat(ClusterEnvironment.from(rank1, null).rendezvousPort()).isEqualTo(port);
        assertThat(port).isBetween(20_000, 39_999);
        Map<String, String> nextStep = Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "SLURM_LAUNCH_NODE_IPADDR",
                "10.200.0.1", "SLURM_JOB_ID", "17", "SLURM_STEP_ID", "4");
        assertThat(ClusterEnvironment.from(nextStep, null).rendezvousPort()).isNotEqualTo(port);
    }

    @Test
    void mpirunNeedsAnExplicitRendezvous() {
        Map<String, String> env = Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "3");
        assertThat(ClusterEnvironment.from(env, "node7:4000"))
                .isEqualTo(new ClusterEnvironment(1, 3, "node7", 4000, "mpirun"));
        assertThatThrownBy(() -> ClusterEnvironment.from(env, null))
                .hasMessageContaining("expected --rendezvous HOST:PORT");
    }

    @Test
    void anEnvironmentWithoutAnEngineNamesWhatWasExpected() {
        assertThatThrownBy(() -> ClusterEnvironment.from(Map.of("HOME", "/root"), null))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("expected SLURM_PROCID and SLURM_NTASKS")
                .hasMessageContaining("but found neither");
    }

    @Test
    void malformedValuesAreReported() {
        assertThatThrownBy(() -> ClusterEnvironment.from(Map.of("SLURM_PROCID", "x", "SLURM_NTASKS", "2"), null))
                .hasMessageContaining("expected an integer in SLURM_PROCID but found 'x'");
        assertThatThrownBy(() -> ClusterEnvironment.from(Map.of("SLURM_PROCID", "2", "SLURM_NTASKS", "2"), null))
                .hasMessageContaining("expected a rank between 0 and 1 but found 2");
        assertThatThrownBy(() -> ClusterEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2"), "nohost"))
                .hasMessageContaining("expected --rendezvous as HOST:PORT but found 'nohost'");
        assertThatThrownBy(() -> ClusterEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2"), "h:70000"))
                .hasMessageContaining("expected a port from 1 to 65535 in --rendezvous but found 70000");
        assertThatThrownBy(() -> ClusterEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2"), null))
                .hasMessageContaining("expected SLURM_LAUNCH_NODE_IPADDR");
    }

    @Test
    void theAddressTowardsThisHostIsLocal() {
        assertThat(HostAddresses.isLocal(HostAddresses.towards("127.0.0.1"))).isTrue();
        assertThat(HostAddresses.isLocal("127.0.0.1")).isTrue();
        assertThat(HostAddresses.isLocal("192.0.2.1")).isFalse();     // TEST-NET-1, never assigned
    }
}
