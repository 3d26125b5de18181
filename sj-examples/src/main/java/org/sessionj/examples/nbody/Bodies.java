package org.sessionj.examples.nbody;

import java.util.SplittableRandom;

/**
 * One unit's own bodies: their particles (positions, masses), velocities and the accelerations
 * summed during a step, with the physics every version shares — softened gravity, a
 * semi-implicit Euler step.
 */
final class Bodies {
    /** The time step. */
    static final double DT = 0.01;
    /** Softening squared: keeps close encounters finite. */
    static final double SOFTENING2 = 1e-4;

    private Particle[] particles;
    private final double[] velocity;
    private final double[] acceleration;

    private Bodies(Particle[] particles, double[] velocity) {
        this.particles = particles;
        this.velocity = velocity;
        this.acceleration = new double[velocity.length];
    }

    /** Bodies {@code from} (inclusive) to {@code to} (exclusive) of the {@code n}-body system seeded by {@code seed}. */
    static Bodies of(int n, long seed, int from, int to) {
        SplittableRandom random = new SplittableRandom(seed);
        Particle[] particles = new Particle[to - from];
        double[] velocity = new double[3 * (to - from)];
        for (int i = 0; i < n && i < to; i++) {
            double x = random.nextDouble(-1, 1);
            double y = random.nextDouble(-1, 1);
            double z = random.nextDouble(-1, 1);
            double vx = random.nextDouble(-0.05, 0.05);
            double vy = random.nextDouble(-0.05, 0.05);
            double vz = random.nextDouble(-0.05, 0.05);
            if (i >= from) {
                particles[i - from] = new Particle(x, y, z, 1.0 / n);
                velocity[3 * (i - from)] = vx;
                velocity[3 * (i - from) + 1] = vy;
                velocity[3 * (i - from) + 2] = vz;
            }
        }
        return new Bodies(particles, velocity);
    }

    /** The first body of unit {@code unit} of {@code units} (contiguous blocks, sizes differing by at most one). */
    static int firstOf(int n, int unit, int units) {
        return unit * (n / units) + Math.min(unit, n % units);
    }

    /** The current particles (immutable values; the array is ours, its elements may be shared). */
    Particle[] particles() {
        return particles;
    }

    /** The number of bodies. */
    int count() {
        return particles.length;
    }

    /** Adds the pull of {@code other} on each of our bodies to the running accelerations. */
    void addPull(Particle other) {
        for (int i = 0; i < particles.length; i++) {
            Particle p = particles[i];
            double dx = other.x() - p.x();
            double dy = other.y() - p.y();
            double dz = other.z() - p.z();
            double r2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
            double f = other.mass() / (r2 * Math.sqrt(r2));
            acceleration[3 * i] += f * dx;
            acceleration[3 * i + 1] += f * dy;
            acceleration[3 * i + 2] += f * dz;
        }
    }

    /** Adds the pull of every particle of {@code others}. */
    void addPulls(Particle[] others) {
        for (Particle other : others) {
            addPull(other);
        }
    }

    /** Ends the step: velocities from the summed accelerations, then positions (new particles). */
    void move() {
        Particle[] next = new Particle[particles.length];
        for (int i = 0; i < particles.length; i++) {
            Particle p = particles[i];
            velocity[3 * i] += acceleration[3 * i] * DT;
            velocity[3 * i + 1] += acceleration[3 * i + 1] * DT;
            velocity[3 * i + 2] += acceleration[3 * i + 2] * DT;
            next[i] = new Particle(p.x() + velocity[3 * i] * DT, p.y() + velocity[3 * i + 1] * DT,
                    p.z() + velocity[3 * i + 2] * DT, p.mass());
            acceleration[3 * i] = 0;
            acceleration[3 * i + 1] = 0;
            acceleration[3 * i + 2] = 0;
        }
        particles = next;
    }
}
