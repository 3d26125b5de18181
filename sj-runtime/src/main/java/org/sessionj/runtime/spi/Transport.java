package org.sessionj.runtime.spi;

import java.io.IOException;

/**
 * A concrete transport as seen by the session runtime (the paper's {@code SJTransport}): it opens
 * acceptors on session ports, connects to them, and says which peers it can reach. Implementations
 * are found with {@link java.util.ServiceLoader} (register with {@code @AutoService(Transport.class)})
 * and must have a public no-argument constructor.
 */
public interface Transport {

    /** The short name used in configuration, e.g. {@code "shm"} or {@code "tcp"}; unique per runtime. */
    String name();

    /**
     * Opens an acceptor on session port {@code port}; {@code 0} picks a free port
     * ({@link ConnectionAcceptor#port()} tells which).
     *
     * @throws java.net.BindException if the port is taken (a runtime that chose the port, free in
     *         another transport's port space, tries another; see {@code TransportManager.listen})
     * @throws IOException if the transport cannot listen for any other reason (retrying will not help)
     */
    ConnectionAcceptor listen(int port) throws IOException;

    /**
     * Connects to the acceptor on {@code host:port}.
     *
     * @param timeoutNanos how long to wait for the connection; negative waits forever
     * @throws IOException if nobody listens there or the connection fails
     */
    Connection connect(String host, int port, long timeoutNanos) throws IOException;

    /**
     * Whether this transport could connect to {@code host:port} at all (for example, the in-JVM
     * transport reaches only acceptors in this JVM). A cheap check: it need not connect.
     */
    boolean canReach(String host, int port);

    /**
     * {@link #canReach(String, int)} within a bound: a transport whose check asks the network (the http
     * transport asks its relay whether a server is registered) waits at most {@code timeoutNanos} for
     * the answer, so that the check never takes longer than the set-up attempt it belongs to, and never
     * gives up sooner either. A requester's set-up passes the time it gives the attempt
     * ({@code sessionj.setupAttemptTimeout}, or the initiation timeout for the last transport).
     *
     * @param timeoutNanos how long the check may take; negative: the transport's own bound
     */
    default boolean canReach(String host, int port, long timeoutNanos) {
        return canReach(host, port);
    }

    /**
     * Whether a runtime whose configuration names no transports uses this one. Transports that need
     * configuration first (TLS needs key material) answer {@code false} and are used only when named.
     */
    default boolean enabledByDefault() {
        return true;
    }

    /**
     * Whether this transport reaches only peers in this JVM (the in-JVM transport). Negotiation
     * offers such a transport only to a requester in the same JVM (docs/negotiation.md).
     */
    default boolean inJvmOnly() {
        return false;
    }

    /**
     * Whether this transport reaches only peers on the same host (cross-process shared memory), or
     * in the same JVM ({@link #inJvmOnly()} implies it). Negotiation offers such a transport only to a
     * requester whose HELLO names the accepter's own host (docs/negotiation.md).
     */
    default boolean sameHostOnly() {
        return inJvmOnly();
    }

    /**
     * Whether this transport may serve session ports as a <em>setup</em> transport. One that answers
     * {@code false} is a session transport only: requesters reach the server over a setup transport,
     * and negotiation moves the session to it. A setup list that names it leaves it out (a list of
     * nothing else is a configuration error).
     */
    default boolean servesSetup() {
        return true;
    }

    /**
     * Whether this transport reaches peers by a detour that costs more than a direct connection (an
     * HTTP tunnel, a relay). The default setup and session lists put such transports after all others,
     * so that a requester tries them only when the direct ones cannot get through.
     */
    default boolean indirect() {
        return false;
    }

    /**
     * The space this transport maps session ports into. Transports that share one (TCP and TLS both
     * use TCP ports) cannot both serve one session port, so at most one of them may be a setup
     * transport; the others listen for sessions on ports of their own.
     */
    default String portSpace() {
        return name();
    }
}
