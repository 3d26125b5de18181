package org.sessionj.examples.deploy;

/** A run could not be deployed or one of its ranks failed; the message names the rank. */
public final class DeploymentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public DeploymentException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public DeploymentException(String message, Throwable cause) {
        super(message, cause);
    }
}
