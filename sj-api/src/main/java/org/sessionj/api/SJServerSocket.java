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

    /**
     * Waits for the next compatible session request. The runtime agrees sessions ahead of this call and
     * queues them: a queued session this socket's program does not take within {@code sessionj.acceptTimeout}
     * (60 s) is failed and its requester told so, and past {@code sessionj.acceptQueue} (1024) queued
     * sessions a new request waits for room, or is refused once the oldest has waited 5 s (docs/configuration.md).
     * A server keeps calling {@code accept()}, typically in a loop that hands each session to a thread.
     */
    SJSocket accept();

    /** Waits at most {@code timeout} for a session request. */
    SJSocket accept(Duration timeout);

    /** The session port this socket listens on. */
    int port();

    /** Stops accepting; sessions already accepted go on. Idempotent. */
    @Override
    void close();
}
