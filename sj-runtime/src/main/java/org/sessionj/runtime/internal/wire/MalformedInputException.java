package org.sessionj.runtime.internal.wire;

/** The peer sent bytes that are not a valid item of the expected kind. */
public final class MalformedInputException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedInputException(String message) {
        super(message);
    }

    public MalformedInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
