package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/**
 * A client's session with the chat server (paper 000 Fig. 9, {@code clientToServer}): the client sends
 * its user name, receives its user ID and, by service passing (i), the service it requests to open the
 * server-to-client event stream; then it runs its own event out stream on this session.
 *
 * <p>Not in the paper: the server first admits the client (WELCOME, then the printed protocol) or refuses
 * it (REFUSED, with the reason the client shows: the room is full, or its address holds too many
 * sessions, hostile18 H8), where before a refused client saw only that the server closed the session.
 */
@Protocol("""
        cbegin.                        // Client requests a session.
        !<String>.                     // Send user name.
        ?{                             // Admitted, or refused with the reason (not in the paper).
          WELCOME:
            ?(int).                    // Receive user ID.
            ?(cbegin.@(EventInStream)).// (i): the service for the server-to-client stream.
            @(EventOutStream),         // Start event out stream.
          REFUSED: ?(String)
        }
        """)
public interface ClientToServer {
}
