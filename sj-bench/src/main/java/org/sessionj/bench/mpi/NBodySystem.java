package org.sessionj.bench.mpi;

import java.util.SplittableRandom;

/**
 * The n-Body system of {@code ./sj demo nbody} as flat arrays (see {@link NBodyPhysics}): the initial
 * bodies drawn as sj-examples' {@code Bodies.of} does, their split into equal blocks, one per rank, and the
 * sequential simulation that checks a distributed run.
 *
 * @param particles {@code x, y, z, mass} of every body
 * @param velocities {@code x, y, z} of every body
 */
public record NBodySystem(double[] particles, double[] velocities) {
    /** The largest difference of a final coordinate from the sequential run that still verifies. */
    public static final double ACCURACY = 1e-9;

    /** {@code n} bodies from {@code seed}: positions in the cube [-1, 1)³, small velocities, mass 1/n each. */
    public static NBodySystem initial(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] particles = new double[4 * n];
        double[] velocity = new double[3 * n];
        for (int i = 0; i < n; i++) {
            particles[4 * i] = random.nextDouble(-1, 1);
            particles[4 * i + 1] = random.nextDouble(-1, 1);
            particles[4 * i + 2] = random.nextDouble(-1, 1);
            velocity[3 * i] = random.nextDouble(-0.05, 0.05);
            velocity[3 * i + 1] = random.nextDouble(-0.05, 0.05);
            velocity[3 * i + 2] = random.nextDouble(-0.05, 0.05);
            particles[4 * i + 3] = 1.0 / n;
        }
        return new NBodySystem(particles, velocity);
    }

    /** The bodies of each of {@code ranks} blocks; fails unless they divide {@code n} evenly. */
    public static int blockSize(int n, int ranks) {
        if (n % ranks != 0) {
            throw new IllegalArgumentException("expected a number of bodies divisible by " + ranks + " but found " + n);
        }
        return n / ranks;
    }

    public int bodies() {
        return particles.length / 4;
    }

    /** A copy of the particles of block {@code block} of {@code m} bodies each. */
    public double[] particlesOf(int block, int m) {
        double[] own = new double[4 * m];
        System.arraycopy(particles, 4 * block * m, own, 0, 4 * m);
        return own;
    }

    /** A copy of the velocities of block {@code block} of {@code m} bodies each. */
    public double[] velocitiesOf(int block, int m) {
        double[] own = new double[3 * m];
        System.arraycopy(velocities, 3 * block * m, own, 0, 3 * m);
        return own;
    }

    /** The particles after {@code steps} steps of the whole system in one unit: the reference. */
    public double[] simulate(int steps) {
        double[] seq = particles.clone();
        double[] vel = velocities.clone();
        double[] acc = new double[3 * bodies()];
        for (int step = 0; step < steps; step++) {
            NBodyPhysics.pull(seq, seq, acc);
            NBodyPhysics.move(seq, vel, acc);
        }
        return seq;
    }

    /**
     * Rank 0's verdict on the gathered particles after {@code steps} steps: {@code verified: largest
     * difference …} when every coordinate lies within {@link #ACCURACY} of {@link #simulate}'s, else
     * {@code VERIFICATION FAILED: …}.
     */
    public String verdict(double[] gathered, int steps) {
        double[] seq = simulate(steps);
        double worst = 0;
        for (int i = 0; i < bodies(); i++) {
            for (int c = 0; c < 3; c++) {
                worst = Math.max(worst, Math.abs(gathered[4 * i + c] - seq[4 * i + c]));
            }
        }
        return (worst <= ACCURACY ? "verified" : "VERIFICATION FAILED") + ": largest difference " + worst;
    }
}
