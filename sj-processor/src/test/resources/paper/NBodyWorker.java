import org.sessionj.api.*;

/** Paper 000, section 3.2 and Figure 7: a pipeline Worker of the parallel n-Body simulation. */
@Protocol("sbegin.!<int>.?[?[?(Particle[])]*]*")
interface WorkerServerSide {}

@Protocol("^(WorkerServerSide)")       // "the client side is dual type"
interface WorkerClientSide {}

final class Particle {
    double x, y, z, mass;
}

public class NBodyWorker {

    public void run(String host_r, int port_r, int port_l, Particle[] particles) throws SJIOException {
        // c_r, of session type workerClientSide, is a SJService for the server socket of the right-hand neighbour.
        SJService c_r = SJService.create(WorkerClientSide.class, host_r, port_r);
        double[] forces = new double[3 * particles.length];

        try (SJServerSocket ss_l = SJServerSocket.create(WorkerServerSide.class, port_l)) {
            // Enter session-try scope for s_l (and s_r).
            try (SJSocket s_l = ss_l.accept();                 // link from the left-hand neighbour: sbegin
                 SJSocket s_r = c_r.request()) {               // link to the right-hand neighbour: cbegin
                // Initialisation token: p is determined dynamically (not shown in 000; as in 001 section 6).
                int p = s_r.receiveInt() + 1;                  // s_r: ?(int)
                s_l.send(p);                                   // s_l: !<int>

                @NoAlias Particle[] current = new Particle[0];
                // Session-iteration chaining: synch. with both n'bours at each sim. step.
                while (s_r.outwhile(s_l.inwhile())) {
                    current = new Particle[particles.length];  // Prepare our own particle data for sending.
                    for (int k = 0; k < particles.length; k++) {
                        current[k] = particles[k];
                    }
                    // Session-iteration chaining: inner iterations within each sim. step.
                    while (s_r.outwhile(s_l.inwhile())) {
                        // (i) Add the current data to the running calculation.
                        for (int k = 0; k < current.length; k++) {
                            addForce(forces, particles, current[k]);
                        }
                        s_r.pass(current);                     // (ii) Forward the current data set (current becomes dead).
                        current = s_l.receive();               // (iii) Receive the next particle data set.
                    }
                    // Calculate the final results for this simulation step and update our own particle data.
                    for (int k = 0; k < current.length; k++) {
                        addForce(forces, particles, current[k]);
                    }
                    updatePositions(particles, forces);
                }
            }
        }
    }

    private static void addForce(double[] forces, Particle[] own, Particle other) {
        for (int i = 0; i < own.length; i++) {
            double dx = other.x - own[i].x, dy = other.y - own[i].y, dz = other.z - own[i].z;
            double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 == 0.0) continue;
            double f = other.mass / (r2 * Math.sqrt(r2));
            forces[3 * i] += f * dx;
            forces[3 * i + 1] += f * dy;
            forces[3 * i + 2] += f * dz;
        }
    }

    private static void updatePositions(Particle[] own, double[] forces) {
        for (int i = 0; i < own.length; i++) {
            own[i].x += forces[3 * i];
            own[i].y += forces[3 * i + 1];
            own[i].z += forces[3 * i + 2];
        }
        java.util.Arrays.fill(forces, 0.0);
    }
}
