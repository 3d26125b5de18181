package org.sessionj.processor.internal.model;

/** An {@code @(P)} or {@code ^(P)} that cannot be inlined: unknown protocol or cyclic references. */
public final class ProtocolReferenceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ProtocolReferenceException(String message) {
        super(message);
    }
}
