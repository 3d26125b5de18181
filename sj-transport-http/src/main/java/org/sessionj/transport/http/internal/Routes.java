package org.sessionj.transport.http.internal;

/** What a tunnel server serves besides the per-connection operations: opening (direct) or pairing (relay). */
public interface Routes {

    /** The half with {@code token}, or null if there is none (unknown, expired or closed). */
    Half half(String token);

    /** Serves a request whose path is not a per-connection operation; answers it (now or later). */
    void route(Exchange exchange);

    /** A client attached a WebSocket to {@code half} (for bookkeeping; nothing to do by default). */
    default void attached(Half half) {
    }
}
