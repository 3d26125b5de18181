package org.sessionj.examples.nbody;

import org.sessionj.api.Protocol;

/** A ring unit's session with its right-hand neighbour: the dual of {@link ServerSide} (001 §4 {@code clientSide}). */
@Protocol("^(ServerSide)")
public interface ClientSide {
}
