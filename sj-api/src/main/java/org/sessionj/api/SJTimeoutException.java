package org.sessionj.api;

/** An input, accept or request did not complete within its timeout. The session is failed. */
public class SJTimeoutException extends SJIOException {
    private static final long serialVersionUID = 1L;

    public SJTimeoutException(String message) {
        super(message);
    }
}
