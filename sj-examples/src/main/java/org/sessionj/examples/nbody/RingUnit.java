package org.sessionj.examples.nbody;

import org.sessionj.api.NoAlias;
import org.sessionj.api.SJ;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.deploy.Progress;
import org.sessionj.examples.jacobi.Variant;

/**
 * A unit of the n-Body ring (paper 000 Fig. 6–7, 001 §4 and §6). Each unit accepts the link from
 * its left-hand neighbour ({@link ServerSide}) and requests the one to its right ({@link ClientSide});
 * in every simulation step the particle sets travel p−1 times to the right, so every unit sees every
 * set once.
 *
 * <p>The middle units are the papers' code: {@code while (right.outwhile(left.inwhile()))} chains
 * both loops to the left neighbour. The ring is bootstrapped, as the papers say, by a designated
 * first and last unit: the first decides the iterations (multicast {@code outwhile} on its right
 * link and on the ring-closing link from the last unit), the last follows both its links
 * (multicast {@code inwhile}). In the {@code noalias} variant the forwarded array is passed on
 * ({@code pass}, reference handover between threads); in the ordinary one it is sent (copied).
 */
final class RingUnit {

    private RingUnit() {
    }

    /**
     * The first unit: requests the right neighbour at {@code next}, accepts the ring-closing link
     * on {@code closing}, runs {@code steps} steps of a ring of {@code units} units. {@code opened} runs
     * once the token has gone round the ring: every unit has opened both its links (and its result
     * session, {@link #report}), the program's counterpart of {@code MPI_Init} and a barrier.
     */
    static void first(@Session(protocol = ClientSide.class) SJService next,
            @Session(protocol = FirstFromLast.class) SJServerSocket closing, Bodies bodies, int units, int steps,
            Variant variant, Progress progress, Runnable opened) {
        try (SJSocket right = next.request();
             SJSocket left = closing.accept()) {
            int p = right.receiveInt() + 1;                  // the token counted the other units
            if (p != units) {
                throw new IllegalStateException("expected a ring of " + units + " units but the token counted " + p);
            }
            opened.run();
            int step = 0;
            while (SJ.outwhile(step < steps, right, left)) {
                int k = 0;
                if (variant == Variant.NOALIAS) {
                    @NoAlias Particle[] current = new Particle[bodies.count()];
                    Particle[] own = bodies.particles();
                    for (int i = 0; i < own.length; i++) {
                        current[i] = own[i];
                    }
                    while (SJ.outwhile(k < p - 1, right, left)) {
                        for (int i = 0; i < current.length; i++) {
                            bodies.addPull(current[i]);      // (i) add the current data to the running calculation
                        }
                        right.pass(current);                 // (ii) forward the current data set
                        current = left.receive();            // (iii) receive the next data set
                        k++;
                    }
                    for (int i = 0; i < current.length; i++) {
                        bodies.addPull(current[i]);
                    }
                } else {
                    Particle[] current = new Particle[bodies.count()];
                    System.arraycopy(bodies.particles(), 0, current, 0, current.length);
                    while (SJ.outwhile(k < p - 1, right, left)) {
                        right.send(current);                 // (i) forward the current data set
                        bodies.addPulls(current);            // (ii) add it to the running calculation
                        current = left.receive();            // (iii) receive the next data set
                        k++;
                    }
                    bodies.addPulls(current);
                }
                bodies.move();
                step++;
                progress.update(step, steps);
            }
        }
    }

    /**
     * A middle unit: accepts the left neighbour on {@code server}, requests the right one at
     * {@code next}, and follows the left neighbour's iterations (chaining).
     */
    static void middle(@Session(protocol = ServerSide.class) SJServerSocket server,
            @Session(protocol = ClientSide.class) SJService next, Bodies bodies, Variant variant) {
        try (SJSocket left = server.accept();
             SJSocket right = next.request()) {
            left.send(right.receiveInt() + 1);               // size of topology
            while (right.outwhile(left.inwhile())) {
                if (variant == Variant.NOALIAS) {
                    @NoAlias Particle[] current = new Particle[bodies.count()];
                    Particle[] own = bodies.particles();
                    for (int i = 0; i < own.length; i++) {
                        current[i] = own[i];
                    }
                    while (right.outwhile(left.inwhile())) {
                        for (int i = 0; i < current.length; i++) {
                            bodies.addPull(current[i]);
                        }
                        right.pass(current);
                        current = left.receive();
                    }
                    for (int i = 0; i < current.length; i++) {
                        bodies.addPull(current[i]);
                    }
                } else {
                    Particle[] current = new Particle[bodies.count()];
                    System.arraycopy(bodies.particles(), 0, current, 0, current.length);
                    while (right.outwhile(left.inwhile())) {
                        right.send(current);
                        bodies.addPulls(current);
                        current = left.receive();
                    }
                    bodies.addPulls(current);
                }
                bodies.move();
            }
        }
    }

    /**
     * The last unit: accepts the left neighbour on {@code server}, requests the first unit at
     * {@code first} (closing the ring), starts the token and follows the iterations of both links.
     */
    static void last(@Session(protocol = ServerSide.class) SJServerSocket server,
            @Session(protocol = LastToFirst.class) SJService first, Bodies bodies, Variant variant) {
        try (SJSocket left = server.accept();
             SJSocket right = first.request()) {
            left.send(1);                                    // the token starts here: one unit so far
            while (SJ.inwhile(left, right)) {
                if (variant == Variant.NOALIAS) {
                    @NoAlias Particle[] current = new Particle[bodies.count()];
                    Particle[] own = bodies.particles();
                    for (int i = 0; i < own.length; i++) {
                        current[i] = own[i];
                    }
                    while (SJ.inwhile(left, right)) {
                        for (int i = 0; i < current.length; i++) {
                            bodies.addPull(current[i]);
                        }
                        right.pass(current);
                        current = left.receive();
                    }
                    for (int i = 0; i < current.length; i++) {
                        bodies.addPull(current[i]);
                    }
                } else {
                    Particle[] current = new Particle[bodies.count()];
                    System.arraycopy(bodies.particles(), 0, current, 0, current.length);
                    while (SJ.inwhile(left, right)) {
                        right.send(current);
                        bodies.addPulls(current);
                        current = left.receive();
                    }
                    bodies.addPulls(current);
                }
                bodies.move();
            }
        }
    }

    /**
     * Opens this unit's result session with the first unit, runs its part of the ring ({@code unit}),
     * then reports its final particles on that session. Opened before the ring, so that every session
     * of the program is open once the ring's token has gone round ({@link #first}'s mark).
     */
    static void report(@Session(protocol = ResultToFirst.class) SJService first, int rank, Bodies bodies, Runnable unit) {
        try (SJSocket s = first.request()) {
            unit.run();
            s.send(rank);
            s.send(bodies.particles());
        }
    }

    /** The first unit collects the final particles of units 1 … {@code units − 1}, indexed by rank. */
    static Particle[][] collect(@Session(protocol = FirstFromResult.class) SJServerSocket results, Bodies own, int units) {
        Particle[][] all = new Particle[units][];
        all[0] = own.particles();
        for (int received = 1; received < units; received++) {
            try (SJSocket s = results.accept()) {
                int rank = s.receiveInt();
                Particle[] particles = s.receive();
                if (rank < 1 || rank >= units || all[rank] != null) {
                    throw new IllegalStateException("expected the result of one of the units 1 to " + (units - 1)
                            + " not yet reported but found unit " + rank);
                }
                all[rank] = particles;
            }
        }
        return all;
    }
}
