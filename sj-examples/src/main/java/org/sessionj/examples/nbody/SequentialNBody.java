package org.sessionj.examples.nbody;

/** The reference: the whole system simulated by one thread, pulls summed in body order. */
public final class SequentialNBody {

    private SequentialNBody() {
    }

    /** The particles of the {@code n}-body system seeded by {@code seed} after {@code steps} steps. */
    public static Particle[] simulate(int n, long seed, int steps) {
        Bodies all = Bodies.of(n, seed, 0, n);
        for (int step = 0; step < steps; step++) {
            all.addPulls(all.particles());
            all.move();
        }
        return all.particles();
    }
}
