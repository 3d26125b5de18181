import org.sessionj.api.*;

import java.util.concurrent.ThreadLocalRandom;

/** Paper 001, section 2: Monte Carlo approximation of pi (Worker side printed; Master side is its dual). */
@Protocol("sbegin.?(int).!<int>")
interface WorkerToMaster {}

@Protocol("^(WorkerToMaster)")
interface MasterToWorker {}

public class MonteCarloPi {

    // Workers run the simulation.
    static void worker(int port) throws SJIOException {
        try (SJServerSocket ss = SJServerSocket.create(WorkerToMaster.class, port);
             SJSocket s_wm = ss.accept()) {
            int hits = 0;
            int trials = s_wm.receiveInt();          // ?(int)
            for (int i = 0; i < trials; i++)
                if (hit()) hits++;
            s_wm.send(hits);                         // !<int>
        }
    }

    // Master controls the Workers (the paper's <s_mw1, s_mw2, ...> shown with two Workers).
    static double master(String host1, int port1, String host2, int port2, int trials) throws SJIOException {
        SJService c1 = SJService.create(MasterToWorker.class, host1, port1);
        SJService c2 = SJService.create(MasterToWorker.class, host2, port2);
        int n = 2;                                   // number of Workers
        try (SJSocket s_mw1 = c1.request();
             SJSocket s_mw2 = c2.request()) {
            s_mw1.send(trials); s_mw2.send(trials);           // <s_mw1, s_mw2>.send(trials): multicast !<int>
            int totalHits =                          // Collect the results: ?(int) on each
                s_mw1.receiveInt()
                + s_mw2.receiveInt();
            return 4.0 * totalHits / ((double) trials * n);   // pi = 4t, t = totalHits / (trials * n)
        }
    }

    /** Generates a random point in [-1,1]^2 and tests whether it falls inside the unit circle. */
    private static boolean hit() {
        double x = ThreadLocalRandom.current().nextDouble(-1.0, 1.0);
        double y = ThreadLocalRandom.current().nextDouble(-1.0, 1.0);
        return x * x + y * y <= 1.0;
    }
}
