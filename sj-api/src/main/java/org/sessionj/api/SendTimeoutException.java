package org.sessionj.api;

/**
 * An output could not be sent within the send timeout ({@code sessionj.sendTimeout}): the peer took
 * nothing while this side's outbound buffers were full (it is frozen, or does not read). The message
 * names the session and the action that was pending. The session is failed.
 */
public class SendTimeoutException extends SJTimeoutException {
    private static final long serialVersionUID = 1L;

    public SendTimeoutException(String message) {
        super(message);
    }
}
