package org.sessionj.examples.pi;

import org.sessionj.api.Protocol;

/** The master's side of a Monte Carlo π session: the dual of {@link WorkerToMaster}. */
@Protocol("^(WorkerToMaster)")
public interface MasterToWorker {
}
