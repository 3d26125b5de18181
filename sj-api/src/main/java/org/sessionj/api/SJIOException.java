package org.sessionj.api;

/** A session failed: the peer closed, crashed or sent something it should not, or the transport broke. */
public class SJIOException extends SJException {
    private static final long serialVersionUID = 1L;

    public SJIOException(String message) {
        super(message);
    }

    public SJIOException(String message, Throwable cause) {
        super(message, cause);
    }
}
