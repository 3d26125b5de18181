package org.sessionj.examples.chat;

/**
 * A change of the user list (the JOIN case of {@link EventOutStream}). A client sends it once, with
 * {@code present} true, to join the global channel; the server sends one per user to a client that
 * joins (the user list) and one whenever a user joins ({@code present} true) or leaves (false). The
 * paper condenses "most of the messages into single Event types"; leaving is one of them, because
 * QUIT ends the stream it is sent on.
 *
 * @param userId the user's ID, given by the server
 * @param userName the user's name
 * @param present whether the user is in the chat from now on
 */
public record UserJoinEvent(int userId, String userName, boolean present) {
}
