package org.sessionj.api;

/**
 * The program tried an action its session type does not allow at this point (caught by the runtime
 * monitor before anything reached the wire). Code compiled with sj-processor cannot get it.
 */
public class SJProtocolViolationException extends SJException {
    private static final long serialVersionUID = 1L;

    public SJProtocolViolationException(String message) {
        super(message);
    }
}
