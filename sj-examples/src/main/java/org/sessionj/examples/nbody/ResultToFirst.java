package org.sessionj.examples.nbody;

import org.sessionj.api.Protocol;

/** After the simulation every other unit reports its rank and final particles to the first unit (for verification). */
@Protocol("cbegin.!<int>.!<Particle[]>")
public interface ResultToFirst {
}
