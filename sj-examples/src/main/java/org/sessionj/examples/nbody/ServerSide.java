package org.sessionj.examples.nbody;

import org.sessionj.api.Protocol;

/**
 * A ring unit's session with its left-hand neighbour (paper 000 §3.2, 001 §4: {@code serverSide}):
 * accept the link, forward the initialisation token, then follow the simulation steps and, within
 * each, the inner iterations that bring the next particle set.
 */
@Protocol("sbegin.!<int>.?[?[?(Particle[])]*]*")
public interface ServerSide {
}
