package org.sessionj.examples.chat;

/**
 * The end of an event stream (QUIT, no recursion): the user leaves, or the server closes the stream.
 *
 * @param userId the user the stream belongs to
 * @param reason why the stream ends, for the other side's user
 */
public record UserQuitEvent(int userId, String reason) {
}
