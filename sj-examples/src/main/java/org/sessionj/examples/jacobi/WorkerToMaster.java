package org.sessionj.examples.jacobi;

import org.sessionj.api.Protocol;

/** A Jacobi worker's side of the session with its master (or the worker above it): the dual of {@link MasterToWorker}. */
@Protocol("^(MasterToWorker)")
public interface WorkerToMaster {
}
