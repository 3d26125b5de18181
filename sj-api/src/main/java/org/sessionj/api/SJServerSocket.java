package org.sessionj.api;

import java.time.Duration;
import org.sessionj.api.spi.SessionRuntimeProvider;

/** Accepts sessions of one protocol on a session port (accepter side). */
public interface SJServerSocket extends AutoCloseable {

    /**
     * Opens a server socket for {@code protocol} (a {@link Protocol} interface, normally one that
     * begins with {@code sbegin}) on {@code port}; port 0 picks a free one (see {@link #port()}).
     */
    static SJServerSocket create(Class<?> protocol, int port) {
        return SessionRuntimeProvider.get().createServerSocket(protocol, port);
    }

    /** Waits for the next compatible session request. */
    SJSocket accept();

    /** Waits at most {@code timeout} for a session request. */
    SJSocket accept(Duration timeout);

    /** The session port this socket listens on. */
    int port();

    /** Stops accepting; sessions already accepted go on. Idempotent. */
    @Override
    void close();
}
