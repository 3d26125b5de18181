package org.sessionj.examples.nbody;

import org.sessionj.api.Protocol;

/**
 * The link that closes the ring, from the last unit to the first. The first unit decides every
 * iteration (it starts the pipeline), so on this link the iterations are the first unit's outwhile
 * and the last unit's inwhile — the opposite of the direction the data flows. (Paper 001 §7: the
 * final pipeline link needs its own session.)
 */
@Protocol("cbegin.?[?[!<Particle[]>]*]*")
public interface LastToFirst {
}
