package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/**
 * A client's session with the chat server (paper 000 Fig. 9, {@code clientToServer}): the client sends
 * its user name, receives its user ID and, by service passing (i), the service it requests to open the
 * server-to-client event stream; then it runs its own event out stream on this session.
 */
@Protocol("""
        cbegin.                      // Client requests a session.
        !<String>.                   // Send user name.
        ?(int).                      // Receive user ID.
        ?(cbegin.@(EventInStream)).  // (i): the service for the server-to-client stream.
        @(EventOutStream)            // Start event out stream.
        """)
public interface ClientToServer {
}
