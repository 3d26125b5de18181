package org.sessionj.examples.deploy;

import java.time.Duration;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;

/**
 * One rank per process, started by a cluster engine ({@code srun}, or {@code mpirun}): this process
 * plays the rank its environment names. Rank 0 serves the rendezvous on the agreed address; the
 * others advertise the address of the interface that reaches rank 0.
 */
public final class ClusterDeployment {

    private ClusterDeployment() {
    }

    /**
     * Plays this process's rank of {@code program}; returns rank 0's result, or null on other ranks.
     *
     * @param host the address to advertise, or null for the interface address towards rank 0
     */
    public static <R extends RankProgram.Outcome> RankRunner.Timed<R> run(RankProgram<R> program,
            ClusterEnvironment env, String host, Duration timeout, Progress progress) {
        if (env.size() != program.ranks()) {
            throw new DeploymentException(program.name() + " as configured needs " + program.ranks()
                    + " ranks: expected " + env.engine() + " to start " + program.ranks() + " but found " + env.size());
        }
        String advertised = host != null ? host : HostAddresses.towards(env.rendezvousHost());
        if (env.rank() == 0) {
            if (!HostAddresses.isLocal(env.rendezvousHost())) {
                throw new DeploymentException("rank 0 must serve the rendezvous at " + env.rendezvousHost()
                        + " but that is not an address of this node (" + advertised
                        + "); pass --rendezvous HOST:PORT with rank 0's host");
            }
            try (SJServerSocket rendezvous = SJServerSocket.create(RendezvousToRank.class, env.rendezvousPort())) {
                return RankRunner.runRankZero(program, rendezvous, advertised, timeout, progress);
            }
        }
        SJService rendezvous = SJService.create(RankToRendezvous.class, env.rendezvousHost(), env.rendezvousPort());
        RankRunner.runRank(program, env.rank(), rendezvous, advertised, timeout);
        return null;
    }
}
