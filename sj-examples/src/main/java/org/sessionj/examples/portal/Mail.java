package org.sessionj.examples.portal;

/**
 * A mail message.
 *
 * @param from the sender
 * @param to the recipient
 * @param subject the subject line
 * @param body the text
 */
public record Mail(String from, String to, String subject, String body) {
}
