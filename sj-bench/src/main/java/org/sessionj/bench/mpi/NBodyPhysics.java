package org.sessionj.bench.mpi;

/**
 * The n-Body physics of {@code ./sj demo nbody} on flat arrays: a particle set holds {@code x, y, z, mass}
 * per body ({@code 4·i …}), velocities and accelerations {@code x, y, z} per body ({@code 3·i …}).
 * Gravity with softening, explicit Euler steps of {@link #DT}.
 */
public final class NBodyPhysics {
    public static final double DT = 0.01;
    /** Added to every squared distance, so that close encounters stay finite. */
    public static final double SOFTENING2 = 1e-4;

    private NBodyPhysics() {
    }

    /** Adds the pull of every body in {@code others} on every body in {@code own} to {@code acc}. */
    public static void pull(double[] own, double[] others, double[] acc) {
        int m = own.length / 4;
        for (int j = 0; j < others.length / 4; j++) {
            double ox = others[4 * j];
            double oy = others[4 * j + 1];
            double oz = others[4 * j + 2];
            double om = others[4 * j + 3];
            for (int i = 0; i < m; i++) {
                double dx = ox - own[4 * i];
                double dy = oy - own[4 * i + 1];
                double dz = oz - own[4 * i + 2];
                double r2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
                double f = om / (r2 * Math.sqrt(r2));
                acc[3 * i] += f * dx;
                acc[3 * i + 1] += f * dy;
                acc[3 * i + 2] += f * dz;
            }
        }
    }

    /** One step of {@code own}'s bodies under {@code acc}, which it then clears for the next step. */
    public static void move(double[] own, double[] vel, double[] acc) {
        for (int i = 0; i < own.length / 4; i++) {
            for (int c = 0; c < 3; c++) {
                vel[3 * i + c] += acc[3 * i + c] * DT;
                own[4 * i + c] += vel[3 * i + c] * DT;
                acc[3 * i + c] = 0;
            }
        }
    }
}
