package org.sessionj.examples.deploy;

/** The ranks of a run could not agree on who is where: the message says which rank did what. */
public final class RendezvousException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public RendezvousException(String message) {
        super(message);
    }
}
