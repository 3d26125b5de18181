package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/** The server's side of {@link ClientToServer} (paper 000 Fig. 9, {@code serverToClient}). */
@Protocol("^(ClientToServer)")   // Dual session type.
public interface ServerToClient {
}
