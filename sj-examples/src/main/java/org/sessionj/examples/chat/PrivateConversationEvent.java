package org.sessionj.examples.chat;

/**
 * A request for a private conversation: from a client to the server, which asks the invited client
 * with the same event (the server sets the sender from the session it came on).
 *
 * @param fromUserId the inviting user's ID
 * @param fromUserName the inviting user's name
 * @param toUserName the invited user's name
 * @param ticket a random one-time value the invited client presents when it connects
 */
public record PrivateConversationEvent(int fromUserId, String fromUserName, String toUserName, String ticket) {
}
