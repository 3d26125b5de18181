package org.sessionj.api;

/** Session initiation found that the two peers' types are not dual (up to subtyping). Both sides get it. */
public class SJIncompatibleSessionException extends SJIOException {
    private static final long serialVersionUID = 1L;

    public SJIncompatibleSessionException(String message) {
        super(message);
    }
}
