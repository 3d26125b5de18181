package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/**
 * A private conversation, from the side that requests it (the client that was invited). The paper
 * does not print {@code clientToClient}; it calls it "a simpler version of the first [clientToServer]
 * that excludes the JOIN and PRIVATE_CONVERSATION branch cases". So, like {@link ClientToServer}: the
 * invited client sends the invitation's ticket (in place of a user name), receives by service passing
 * the service for the stream towards it, and runs its own stream, both without JOIN and
 * PRIVATE_CONVERSATION.
 */
@Protocol("""
        !<String>.                        // The ticket of the invitation.
        ?(cbegin.@(PrivateInStream)).     // The service for the inviting client's stream towards us.
        @(PrivateOutStream)               // Our stream towards the inviting client.
        """)
public interface ClientToClient {
}
