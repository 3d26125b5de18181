package org.sessionj.examples.jacobi;

import org.sessionj.api.Protocol;

/**
 * The Jacobi master's side of a session with a worker (paper 001 §3; 000 Fig. 4): the matrix size,
 * then, for as long as the master decides, boundary values out, the worker's ghost points in and
 * the worker's convergence data (largest change, largest value); finally the worker's rows.
 *
 * <p>In the pipeline version every worker plays this side towards the worker below it.
 */
@Protocol("cbegin.!<int>.![!<double[]>.?(double[]).?(double).?(double)]*.?(double[][])")
public interface MasterToWorker {
}
