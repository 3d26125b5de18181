package org.sessionj.runtime.internal.wire;

/**
 * A message value the wire cannot carry as it is (a string with an unpaired surrogate): the send fails
 * with this reason and nothing of the value is written.
 */
public final class UnencodableValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code reason}, in the project's words (it reaches the user and the peer). */
    public UnencodableValueException(String reason) {
        super(reason);
    }
}
