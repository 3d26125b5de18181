import org.sessionj.api.*;

/** Paper 001, sections 4 and 6: the n-Body ring Worker (topology set-up and main simulation loop; no noalias). */
@Protocol("sbegin.!<int>.?[?[?(Particle[])]*]*")        // serverSide  (ps_nbody in the code)
interface ServerSide {}

@Protocol("cbegin.?(int).![![!<Particle[]>]*]*")        // clientSide  (pc_nbody in the code); paper's "![[" corrected
interface ClientSide {}

final class Particle {
    double x, y, z, mass;
}

final class ParticleV {
    double vx, vy, vz, fx, fy, fz;
}

public class NBodyRing {

    public void run(String host_r, int port_r, int port_l, int numParticles) throws SJIOException {
        // Set up the sockets of the topology
        final SJService c_r = SJService.create(ClientSide.class, host_r, port_r);

        try (SJServerSocket ss_l = SJServerSocket.create(ServerSide.class, port_l)) {
            try (SJSocket left = ss_l.accept();
                 SJSocket right = c_r.request()) {
                // size of topology
                left.send(right.receiveInt() + 1);              // right: ?(int), left: !<int>

                // algorithm
                Particle[] particles = new Particle[numParticles];
                ParticleV[] pvs = new ParticleV[numParticles];
                int i = 0;

                initParticles(particles, pvs);

                /* Synchronise with our two neighbours for each simulation step. left: ?[.. */
                while (right.outwhile(left.inwhile())) {
                    /* Load the initial sendbuffer */
                    Particle[] current = new Particle[numParticles];
                    System.arraycopy(particles, 0, current, 0, numParticles);
                    /* Inner iterations within each simulation step. left: ?[.. */
                    while (right.outwhile(left.inwhile())) {
                        /* (i) Forward the current data set. right: !<Particle[]>. */
                        right.send(current);
                        /* (ii) Add the current data to the running calculation. */
                        computeForces(particles, current, pvs);
                        /* (iii) Receive next data set. left: ?(Particle[]). */
                        current = left.receive();
                    } // left: ..]*
                    /* Calculate the final results for this sim. step and update our own particle data. */
                    computeForces(particles, current, pvs);
                    computeNewPos(particles, pvs, i);

                    i++;
                } // left: ..]*
            }
        } catch (SJIncompatibleSessionException ise) {
            System.err.println("[NBody] Non-dual behavior: " + ise);
        }
        // ...Capture other exceptions (SJIOException is declared by run)
    }

    private static void initParticles(Particle[] particles, ParticleV[] pvs) {
        for (int k = 0; k < particles.length; k++) {
            particles[k] = new Particle();
            particles[k].x = k;
            particles[k].mass = 1.0;
            pvs[k] = new ParticleV();
        }
    }

    private static void computeForces(Particle[] own, Particle[] others, ParticleV[] pvs) {
        for (int i = 0; i < own.length; i++) {
            for (Particle o : others) {
                double dx = o.x - own[i].x, dy = o.y - own[i].y, dz = o.z - own[i].z;
                double r2 = dx * dx + dy * dy + dz * dz;
                if (r2 == 0.0) continue;
                double f = o.mass / (r2 * Math.sqrt(r2));
                pvs[i].fx += f * dx;
                pvs[i].fy += f * dy;
                pvs[i].fz += f * dz;
            }
        }
    }

    private static void computeNewPos(Particle[] own, ParticleV[] pvs, int step) {
        for (int i = 0; i < own.length; i++) {
            pvs[i].vx += pvs[i].fx; pvs[i].vy += pvs[i].fy; pvs[i].vz += pvs[i].fz;
            own[i].x += pvs[i].vx; own[i].y += pvs[i].vy; own[i].z += pvs[i].vz;
            pvs[i].fx = pvs[i].fy = pvs[i].fz = 0.0;
        }
    }
}
