package org.sessionj.bench.mpi;

/**
 * One rank's part in an n-Body run on a ring of {@code ranks} ranks: the run's parameters, the whole
 * initial {@link NBodySystem} (every rank draws it, as {@code ./sj demo nbody} does), the rank's block of
 * {@code blockSize} bodies and its neighbours. Particle sets travel to the right, arrive from the left.
 */
public record NBodyRing(int rank, int ranks, int steps, NBodySystem system, int blockSize) {
    /**
     * The run of the program arguments {@code app}, whose last three are the number of bodies (a multiple
     * of {@code ranks}), the steps and the seed (earlier ones are the launcher's).
     */
    public static NBodyRing fromArgs(String[] app, int rank, int ranks) {
        if (app.length < 3) {
            throw new IllegalArgumentException("expected the arguments BODIES STEPS SEED but found " + app.length
                    + " argument(s)");
        }
        int n = Integer.parseInt(app[app.length - 3]);
        int steps = Integer.parseInt(app[app.length - 2]);
        long seed = Long.parseLong(app[app.length - 1]);
        int m = NBodySystem.blockSize(n, ranks);
        return new NBodyRing(rank, ranks, steps, NBodySystem.initial(n, seed), m);
    }

    public int bodies() {
        return system.bodies();
    }

    /** A copy of this rank's particles at the start. */
    public double[] ownParticles() {
        return system.particlesOf(rank, blockSize);
    }

    /** A copy of this rank's velocities at the start. */
    public double[] ownVelocities() {
        return system.velocitiesOf(rank, blockSize);
    }

    /** The rank this one sends particle sets to. */
    public int right() {
        return (rank + 1) % ranks;
    }

    /** The rank this one receives particle sets from. */
    public int left() {
        return (rank + ranks - 1) % ranks;
    }
}
