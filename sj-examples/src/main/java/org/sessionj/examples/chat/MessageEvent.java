package org.sessionj.examples.chat;

/**
 * A line of text: on the global channel (the server sets the sender's ID and name from the session it
 * came on, whatever the client claims) or in a private conversation.
 *
 * @param userId the sender's ID (0: the server itself)
 * @param userName the sender's name
 * @param text the message
 */
public record MessageEvent(int userId, String userName, String text) {
}
