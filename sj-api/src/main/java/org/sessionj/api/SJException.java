package org.sessionj.api;

/**
 * Base of every exception a session raises. Unchecked, so that session code reads like the papers'
 * and works inside lambdas and streams; a session-try scope still sees every failure.
 */
public class SJException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SJException(String message) {
        super(message);
    }

    public SJException(String message, Throwable cause) {
        super(message, cause);
    }
}
