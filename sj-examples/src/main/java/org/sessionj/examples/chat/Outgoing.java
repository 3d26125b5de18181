package org.sessionj.examples.chat;

import org.sessionj.api.SJService;

/** What the server has queued for one client's event stream. */
sealed interface Outgoing {

    /** A change of the user list. */
    record Join(UserJoinEvent event) implements Outgoing {
    }

    /** A message of the global channel. */
    record Message(MessageEvent event) implements Outgoing {
    }

    /** An invitation to a private conversation and the inviting client's service, to pass on ACCEPT. */
    record Invitation(PrivateConversationEvent event, SJService service) implements Outgoing {
    }

    /** The normal end of the stream. */
    record Quit(UserQuitEvent event) implements Outgoing {
    }

    /** The stream is failed at once (the client is gone, too slow, or the server drops it). */
    record Drop(String reason) implements Outgoing {
    }
}
