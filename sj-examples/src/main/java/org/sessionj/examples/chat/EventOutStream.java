package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/**
 * The event stream of paper 000 Fig. 9 ({@code eventOutStream}), from the side that sends the events:
 * the client on its session with the server, the server on the stream it serves to each client.
 * Only QUIT leaves the recursion, ending the stream. A PRIVATE_CONVERSATION request is answered by
 * the receiving side; on ACCEPT the sender passes the service of the private conversation (ii).
 */
@Protocol("""
        rec X[                                   // Enter recursion scope for stream.
          !{                                     // Select the event type.
            JOIN: !<UserJoinEvent>.#X,
            MESSAGE: !<MessageEvent>.#X,
            PRIVATE_CONVERSATION:                // Make request and...
              !<PrivateConversationEvent>.?{     // ...get response.
                ACCEPT: !<cbegin.@(ClientToClient)>,   // (ii).
                REJECT:
              }.#X,
            QUIT: !<UserQuitEvent>               // No recurse (stream end).
          }
        ]
        """)
public interface EventOutStream {
}
