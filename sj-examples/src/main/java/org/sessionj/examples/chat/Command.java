package org.sessionj.examples.chat;

/** What a client's event out stream sends next, queued by the user interface and the in stream. */
sealed interface Command {

    /** A message on the global channel. */
    record Say(String text) implements Command {
    }

    /** An invitation to a private conversation. */
    record Invite(Conversation conversation) implements Command {
    }

    /** The user leaves. */
    record Quit() implements Command {
    }

    /** The connection {@code generation} broke (seen by its in stream): end the out stream too. */
    record ServerGone(int generation, String reason) implements Command {
    }
}
