import org.sessionj.api.*;

/** Paper 000, Figures 4 and 5: main loops of the parallel Jacobi Master and Worker (noalias ghost points). */
@Protocol("cbegin.!<int>.![!<double[]>.?(double[]).?(double)]*.?(double[][])")
interface MasterToWorker {}

@Protocol("^(MasterToWorker)")          // the Worker's side
interface WorkerToMaster {}

public class JacobiFig5 {

    private static final int MAX_ITERS = 10_000;

    static double[][] master(int size, String host1, int port1, String host2, int port2) throws SJIOException {
        SJService c1 = SJService.create(MasterToWorker.class, host1, port1);
        SJService c2 = SJService.create(MasterToWorker.class, host2, port2);
        int rows = size / 3;
        double[][] grid = new double[rows + 2][size + 2];
        try (SJSocket mw1 = c1.request();                       // cbegin
             SJSocket mw2 = c2.request()) {
            mw1.send(size); mw2.send(size);                            // !<int> (before Fig. 5)
            @NoAlias double[] ghost1 = new double[size], ghost2 = new double[size];
            for (int k = 0; k < size; k++) { ghost1[k] = grid[1][k + 1]; ghost2[k] = grid[rows][k + 1]; }
            double convergenceData1 = 1.0, convergenceData2 = 1.0;
            int iters = 0;
            while (SJ.outwhile(                                 // Main Master loop: ![..]*
                    !converged(convergenceData1, convergenceData2) && iters++ < MAX_ITERS, mw1, mw2)) {
                mw1.pass(ghost1);                               // (*) mw1: !<noalias double[]>; ghost1 becomes dead
                mw2.pass(ghost2);                               //     similarly for mw2 (elided in the paper)
                ghost1 = mw1.receive();                         // mw1: ?(double[])
                ghost2 = mw2.receive();                         // mw2: ?(double[])
                // Update subgrid and prepare next ghost points (written into the received containers).
                for (int k = 0; k < size; k++) { grid[0][k + 1] = ghost1[k]; grid[rows + 1][k + 1] = ghost2[k]; }
                jacobiStep(grid, rows, size);
                for (int k = 0; k < size; k++) { ghost1[k] = grid[1][k + 1]; ghost2[k] = grid[rows][k + 1]; }
                convergenceData1 = mw1.receiveDouble();         // mw1: ?(double)
                convergenceData2 = mw2.receiveDouble();         // mw2: ?(double)
            }
            double[][] result1 = mw1.receive();                 // ?(double[][]) (after Fig. 5)
            double[][] result2 = mw2.receive();
            return assemble(result1, grid, result2);
        }
    }

    static void worker(int port) throws SJIOException {
        try (SJServerSocket ss = SJServerSocket.create(WorkerToMaster.class, port);
             SJSocket wm = ss.accept()) {                       // sbegin
            int size = wm.receiveInt();                         // ?(int) (before Fig. 5)
            int rows = size / 3;
            double[][] grid = new double[rows + 2][size + 2];
            // Grid values and ghost points initialised.
            @NoAlias double[] ghost = new double[size], prev = new double[size];
            for (int k = 0; k < size; k++) ghost[k] = grid[rows][k + 1];
            double convergenceData = 1.0;
            while (wm.inwhile()) {                              // Worker follows Master: ?[..]*
                prev = ghost;                                   // ghost moved into prev (ghost becomes dead)
                ghost = wm.receive();                           // wm: ?(double[])
                for (int k = 0; k < size; k++) grid[rows + 1][k + 1] = ghost[k];
                wm.pass(prev);                                  // (*) wm: !<noalias double[]>
                convergenceData = jacobiStep(grid, rows, size); // Subgrid and ghost points updated.
                for (int k = 0; k < size; k++) ghost[k] = grid[rows][k + 1];
                wm.send(convergenceData);                       // wm: !<double>
            }
            wm.send(grid);                                      // !<double[][]> (after Fig. 5)
        }
    }

    private static boolean converged(double d1, double d2) {
        return Math.max(d1, d2) < 1e-5;
    }

    /** One Jacobi sweep over the interior; returns the largest change. */
    private static double jacobiStep(double[][] u, int rows, int size) {
        double[][] next = new double[rows + 2][size + 2];
        double diff = 0.0;
        for (int i = 1; i <= rows; i++)
            for (int j = 1; j <= size; j++) {
                next[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) / 4.0;
                diff = Math.max(diff, Math.abs(next[i][j] - u[i][j]));
            }
        for (int i = 1; i <= rows; i++)
            System.arraycopy(next[i], 1, u[i], 1, size);
        return diff;
    }

    private static double[][] assemble(double[][] top, double[][] middle, double[][] bottom) {
        return new double[][] { top[1], middle[1], bottom[1] };
    }
}
