package org.sessionj.runtime.spi;

import java.io.IOException;

/**
 * A {@link Connection#write} or {@link Connection#flush} waited longer than the connection's
 * {@linkplain Connection#sendTimeout send timeout} for the peer to take what was sent before. The
 * connection may hold frames that never left; the runtime fails the session.
 */
public final class WriteTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    /** With a message naming the connection and the time waited. */
    public WriteTimeoutException(String message) {
        super(message);
    }
}
