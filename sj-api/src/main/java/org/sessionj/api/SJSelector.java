package org.sessionj.api;

import java.time.Duration;
import org.sessionj.api.spi.SessionRuntimeProvider;

/**
 * Waits on many sessions at once and yields one whose input is ready (SJ's non-blocking input).
 * Ready sessions are served fairly: none is starved while others stay ready.
 */
public interface SJSelector extends AutoCloseable {

    /** A new, empty selector. */
    static SJSelector open() {
        return SessionRuntimeProvider.get().openSelector();
    }

    /** Adds a session to watch. The selector does not own it: the caller still completes it. */
    void register(SJSocket socket);

    /** Stops watching a session. */
    void deregister(SJSocket socket);

    /** Blocks until a registered session has input ready, and returns it. */
    SJSocket select();

    /** Like {@link #select()}, but fails with {@link SJTimeoutException} after {@code timeout}. */
    SJSocket select(Duration timeout);

    /** Deregisters everything. */
    @Override
    void close();
}
