package org.sessionj.runtime.internal.transport;

import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The same-host acceptors a requester was sent to before, so that its next session with the same
 * session port goes straight there instead of over a setup connection first (docs/negotiation.md,
 * "Straight to a local acceptor"). An ipc session set up over tcp costs a tcp connect, HELLO/AGREED
 * and a close before its own connection opens; with a route it costs the ipc connection alone.
 *
 * <p>A route is a hint, never trusted: the requester's HELLO names the acceptor id the route was
 * learnt with, and an acceptor of another server socket (the old one closed, a new one took its
 * port) refuses it as stale; the requester then forgets the route and negotiates over the session
 * port as before. Bounded: past {@link #MAX_ROUTES} session ports the table starts afresh (a program
 * talking to that many local servers relearns them at the cost of one detour each).
 */
public final class LocalRoutes {
    /** At most this many session ports are remembered. */
    static final int MAX_ROUTES = 1024;

    /** Where a session port's sessions went last: a same-host transport, its port, the acceptor's server socket. */
    public record Route(String transport, int port, UUID acceptor) {
    }

    private record Key(String host, int port) {
    }

    private final ConcurrentHashMap<Key, Route> routes = new ConcurrentHashMap<>();

    /** The route for session port {@code host:port}, or null. */
    public Route find(String host, int port) {
        // Usually empty (no ipc session yet, or in-JVM only): no key made or hashed per session then.
        return routes.isEmpty() ? null : routes.get(new Key(host, port));
    }

    /** Remembers that sessions with {@code host:port} can go straight to {@code route}. */
    public void remember(String host, int port, Route route) {
        if (routes.size() >= MAX_ROUTES) {
            routes.clear();
        }
        routes.put(new Key(host, port), route);
    }

    /** Forgets the route for {@code host:port} if it is still {@code route} (it failed). */
    public void forget(String host, int port, Route route) {
        routes.remove(new Key(host, port), route);
    }

    /** How many session ports have a route. */
    public int size() {
        return routes.size();
    }
}
