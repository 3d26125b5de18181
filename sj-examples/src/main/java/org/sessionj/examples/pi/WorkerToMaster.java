package org.sessionj.examples.pi;

import org.sessionj.api.Protocol;

/** A Monte Carlo π worker (paper 001 §2): told how many points to test, it answers how many hit. */
@Protocol("sbegin.?(int).!<int>")
public interface WorkerToMaster {
}
