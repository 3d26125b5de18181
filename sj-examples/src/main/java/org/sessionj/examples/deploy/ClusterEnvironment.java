package org.sessionj.examples.deploy;

import java.util.Map;

/**
 * A rank's place in a run started by a cluster engine, read from the environment: Slurm's
 * {@code srun} ({@code SLURM_PROCID}, {@code SLURM_NTASKS}, {@code SLURM_LAUNCH_NODE_IPADDR},
 * {@code SLURM_STEP_RESV_PORTS}, {@code SLURM_JOB_ID}, {@code SLURM_STEP_ID}) or Open MPI's
 * {@code mpirun} ({@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE}).
 *
 * @param rank this process's rank
 * @param size the number of ranks
 * @param rendezvousHost where rank 0 serves the rendezvous
 * @param rendezvousPort the rendezvous's session port
 * @param engine which engine's variables were used ({@code "slurm"} or {@code "mpirun"})
 */
public record ClusterEnvironment(int rank, int size, String rendezvousHost, int rendezvousPort, String engine) {
    /** The lowest port a rendezvous port is derived into when Slurm reserved none. */
    static final int DERIVED_PORT_BASE = 20_000;
    /** How many ports the derived rendezvous port ranges over. */
    static final int DERIVED_PORT_RANGE = 20_000;

    /**
     * Reads {@code env}. {@code rendezvous} ({@code HOST:PORT}, or null) overrides the rendezvous
     * address; under Slurm it defaults to the launch node ({@code SLURM_LAUNCH_NODE_IPADDR}) and the
     * step's first reserved port ({@code SLURM_STEP_RESV_PORTS}), else a port derived from the job
     * and step ids (the same on every rank of the step).
     *
     * @throws DeploymentException when the environment does not describe a rank
     */
    public static ClusterEnvironment from(Map<String, String> env, String rendezvous) {
        String engine;
        int rank;
        int size;
        if (env.containsKey("SLURM_PROCID") && env.containsKey("SLURM_NTASKS")) {
            engine = "slurm";
            rank = integer(env, "SLURM_PROCID");
            size = integer(env, "SLURM_NTASKS");
        } else if (env.containsKey("OMPI_COMM_WORLD_RANK") && env.containsKey("OMPI_COMM_WORLD_SIZE")) {
            engine = "mpirun";
            rank = integer(env, "OMPI_COMM_WORLD_RANK");
            size = integer(env, "OMPI_COMM_WORLD_SIZE");
        } else {
            throw new DeploymentException("expected SLURM_PROCID and SLURM_NTASKS (run under srun) or"
                    + " OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE (run under mpirun) in the environment but found "
                    + (env.containsKey("SLURM_PROCID") || env.containsKey("SLURM_NTASKS") ? "only one of the SLURM ones"
                    : "neither"));
        }
        if (size < 1 || rank < 0 || rank >= size) {
            throw new DeploymentException("expected a rank between 0 and " + (size - 1) + " but found " + rank
                    + " (" + engine + ")");
        }
        if (rendezvous != null) {
            HostPort address = HostPort.parse(rendezvous, "--rendezvous");
            return new ClusterEnvironment(rank, size, address.host(), address.port(), engine);
        }
        if (!engine.equals("slurm")) {
            throw new DeploymentException("under mpirun the rendezvous address is not in the environment:"
                    + " expected --rendezvous HOST:PORT (the host of rank 0) but found none");
        }
        String host = env.get("SLURM_LAUNCH_NODE_IPADDR");
        if (host == null || host.isBlank()) {
            throw new DeploymentException("expected SLURM_LAUNCH_NODE_IPADDR (the host of rank 0) in the environment"
                    + " or --rendezvous HOST:PORT but found neither");
        }
        return new ClusterEnvironment(rank, size, host, slurmPort(env), engine);
    }

    /** The step's first reserved port, or one derived from the job and step ids. */
    static int slurmPort(Map<String, String> env) {
        String reserved = env.get("SLURM_STEP_RESV_PORTS");
        if (reserved != null && !reserved.isBlank()) {
            String first = reserved.split("[-,]")[0].strip();
            try {
                return Integer.parseInt(first);
            } catch (NumberFormatException e) {
                throw new DeploymentException("expected SLURM_STEP_RESV_PORTS like 20000-20003 but found '"
                        + reserved + "'");
            }
        }
        if (!env.containsKey("SLURM_JOB_ID")) {
            throw new DeploymentException("expected SLURM_STEP_RESV_PORTS or SLURM_JOB_ID in the environment (to agree"
                    + " on a rendezvous port) or --rendezvous HOST:PORT but found none");
        }
        long job = integer(env, "SLURM_JOB_ID");
        long step = env.containsKey("SLURM_STEP_ID") ? integer(env, "SLURM_STEP_ID") : 0;
        return DERIVED_PORT_BASE + Math.floorMod(job * 131 + step, DERIVED_PORT_RANGE);
    }

    private static int integer(Map<String, String> env, String name) {
        String value = env.get(name);
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException | NullPointerException e) {
            throw new DeploymentException("expected an integer in " + name + " but found '" + value + "'");
        }
    }
}
