import org.sessionj.api.*;

/*
 * Paper 001, Appendix: the complete Jacobi Master ("master.sj", package onedimjacobi.Noalias),
 * translated.  Worker and Client are NOT printed in the paper ("[2]"); the classes Worker and
 * Client at the end of this file are reconstructions (Worker from the section 3 snippets) so that
 * every protocol used by Master has an implementation of its dual.
 */

@Protocol("sbegin.?(int).!<double[][]>")
interface P_mc {}

@Protocol("!<int>")
interface Matrix_size {}

@Protocol("?(Double).?(Double)")
interface Stopping_condition {}

@Protocol("!<double[]>.?(double[])")
interface Ghost_points {}

@Protocol("?(double[][])")
interface Partial_result {}

@Protocol("cbegin.@(Matrix_size).![@(Ghost_points).@(Stopping_condition)]*.@(Partial_result)")
interface P_mw {}

@Protocol("^(P_mw)")      // Worker side (not printed in the paper)
interface P_wm {}

@Protocol("^(P_mc)")      // Client side (not printed in the paper)
interface P_cm {}

public class Master {

    private static final int MAX_ITERATIONS = 100000;

    public void run(int port_m, String host_n, int port_n, String host_s, int port_s) throws SJIOException {
        /* Sockets that communicate with neighbours. */
        final SJService c_n = SJService.create(P_mw.class, host_n, port_n);
        final SJService c_s = SJService.create(P_mw.class, host_s, port_s);

        /* Socket that communicates with Client: create and set up the server socket. */
        try (SJServerSocket ss = SJServerSocket.create(P_mc.class, port_m)) {
            while (true) {
                // Accept the connection from client.
                try (SJSocket cm = ss.accept()) {
                    // size of the problem.
                    int size = cm.receiveInt();                           // cm: ?(int)

                    int rows = size / 3;

                    // Set up the connection with neighbours.
                    try (SJSocket mn = c_n.request();
                         SJSocket ms = c_s.request()) {
                        // Send to the first and second neighbor the size of the problem.
                        mn.send(size); ms.send(size);                            // <mn, ms>.send(size): @(matrix_size)

                        // Build its sub-grid.
                        double[][] u = new double[rows + 2][size + 2];

                        // Sub-grid next iterations with the same dimension as u.
                        double[][] newu = new double[rows + 2][size + 2];

                        // Initialise u, unew, f.
                        init(u, newu, rows, size);

                        double diff = 1.0;
                        double valmx = 1.0;
                        int iterations = 1;

                        // Master controls iteration condition.               <mn, ms>.outwhile(...): ![
                        while (SJ.outwhile((diff / valmx) >= (1.0 * Math.pow(10, -5))
                                && iterations <= MAX_ITERATIONS, mn, ms)) {
                            // Main body of the algorithm.
                            diff = 0.0;
                            valmx = 0.0;

                            // Jacobi iterations.
                            for (int i = 1; i < rows + 1; i++) {
                                for (int j = 1; j < size + 1; j++) {
                                    newu[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1]
                                            + u[i][j + 1]) / 4.0;

                                    diff = Math.max(diff, Math.abs(newu[i][j] - u[i][j]));
                                    valmx = Math.max(valmx, Math.abs(newu[i][j]));
                                }
                            }

                            // Ghost zone of neighbors.
                            @NoAlias double[] border_n = new double[size];
                            @NoAlias double[] border_s = new double[size];

                            // Send the ghost zones of neighbours.
                            for (int k = 0; k < size; k++) {
                                border_n[k] = newu[1][k + 1];
                            }
                            for (int k = 0; k < size; k++) {
                                border_s[k] = newu[rows][k + 1];
                            }

                            mn.pass(border_n);                                // mn: !<double[]> (noalias)
                            ms.pass(border_s);                                // ms: !<double[]> (noalias)

                            // Receive ghost zones from neighbours.
                            @NoAlias double[] ghost_n = mn.receive();         // mn: ?(double[])
                            @NoAlias double[] ghost_s = ms.receive();         // ms: ?(double[])

                            // Copy ghost zones in newu
                            for (int k = 0; k < ghost_n.length; k++) {
                                newu[0][k + 1] = ghost_n[k];
                            }
                            for (int k = 0; k < ghost_s.length; k++) {
                                newu[rows + 1][k + 1] = ghost_s[k];
                            }

                            // Update u with newu.
                            double[][] tmp = u;
                            u = newu;
                            newu = tmp;

                            // Computing newerror.   (paper: ((Double) mn.receive()).doubleValue())
                            Double diff_n = mn.receive();                     // mn: ?(Double)
                            diff = Math.max(diff, diff_n.doubleValue());
                            Double valmx_n = mn.receive();                    // mn: ?(Double)
                            valmx = Math.max(valmx, valmx_n.doubleValue());

                            Double diff_s = ms.receive();                     // ms: ?(Double)
                            diff = Math.max(diff, diff_s.doubleValue());
                            Double valmx_s = ms.receive();                    // ms: ?(Double)
                            valmx = Math.max(valmx, valmx_s.doubleValue());

                            if (iterations == 1) {
                                diff = 1.0;
                                valmx = 1.0;
                            }
                            iterations++;
                        }                                                     // ]*

                        double[][] w1 = mn.receive();                         // mn: ?(double[][])
                        double[][] w2 = ms.receive();                         // ms: ?(double[][])

                        double[][] result = new double[size][size];

                        for (int i = 0; i < rows; i++) {
                            for (int j = 0; j < size; j++) {
                                result[i][j] = w1[i + 1][j + 1];
                            }
                        }

                        for (int i = rows; i < 2 * rows; i++) {
                            for (int j = 0; j < size; j++) {
                                result[i][j] = u[i - rows + 1][j + 1];
                            }
                        }

                        for (int i = 2 * rows; i < size; i++) {
                            for (int j = 0; j < size; j++) {
                                result[i][j] = w2[i - 2 * rows + 1][j + 1];
                            }
                        }
                        cm.send(result);                                      // cm: !<double[][]>
                    }
                }
            }
        } catch (SJIncompatibleSessionException ise) {
            System.err.println("[Master] Non-dual behavior: " + ise);
        } catch (SJIOException sioe) {
            System.err.println("[Master] Communication error: " + sioe);
        }
    }

    /** Initial values: fixed boundary of 1.0 along the left and right edges, 0 inside. */
    private static void init(double[][] u, double[][] newu, int rows, int size) {
        for (int i = 0; i < rows + 2; i++) {
            u[i][0] = newu[i][0] = 1.0;
            u[i][size + 1] = newu[i][size + 1] = 1.0;
        }
    }
}

/* RECONSTRUCTED (not printed): a Worker following p_wm = ^(p_mw), using the section 3 snippets
 * "<wm>.inwhile() { ... }" and "noalias double[] ghostPoints = ...; s_wm.send(ghostPoints);". */
class Worker {

    /** north = true for the Worker holding the subgrid above the Master's. */
    public void run(int port_w, boolean north) throws SJIOException {
        try (SJServerSocket ss = SJServerSocket.create(P_wm.class, port_w);
             SJSocket s_wm = ss.accept()) {
            int size = s_wm.receiveInt();                                     // ?(int)
            int rows = size / 3;
            double[][] u = new double[rows + 2][size + 2];
            double[][] newu = new double[rows + 2][size + 2];
            int haloRow = north ? rows + 1 : 0;       // where the Master's boundary values go
            int borderRow = north ? rows : 1;         // our boundary values (ghost points for the Master)

            // Workers obey the Master.                                       <wm>.inwhile(): ?[
            while (s_wm.inwhile()) {
                @NoAlias double[] ghost = s_wm.receive();                     // ?(double[])
                for (int k = 0; k < ghost.length; k++) {
                    u[haloRow][k + 1] = ghost[k];
                }
                double diff = 0.0;
                double valmx = 0.0;
                for (int i = 1; i < rows + 1; i++) {
                    for (int j = 1; j < size + 1; j++) {
                        newu[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) / 4.0;
                        diff = Math.max(diff, Math.abs(newu[i][j] - u[i][j]));
                        valmx = Math.max(valmx, Math.abs(newu[i][j]));
                    }
                }
                /* Array containing our boundary values (ghost points for the Master) declared as noalias. */
                @NoAlias double[] ghostPoints = new double[size];
                for (int k = 0; k < size; k++) {
                    ghostPoints[k] = newu[borderRow][k + 1];
                }
                s_wm.pass(ghostPoints);                   // Zero-copy send, as directed by types: !<noalias double[]>
                // ghostPoints is dead from here on.
                double[][] tmp = u;
                u = newu;
                newu = tmp;
                s_wm.send(Double.valueOf(diff));                              // !<Double>
                s_wm.send(Double.valueOf(valmx));                             // !<Double>
            }                                                                 // ]*
            s_wm.send(u);                                                     // !<double[][]>
        }
    }
}

/* RECONSTRUCTED (not printed): the Client of the Master, p_cm = ^(p_mc). */
class Client {

    public double[][] run(String host_m, int port_m, int size) throws SJIOException {
        SJService c = SJService.create(P_cm.class, host_m, port_m);
        try (SJSocket s = c.request()) {
            s.send(size);                                                     // !<int>
            return s.receive();                                               // ?(double[][])
        }
    }
}
