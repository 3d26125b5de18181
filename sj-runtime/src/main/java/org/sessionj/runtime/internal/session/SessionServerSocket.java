package org.sessionj.runtime.internal.session;

import java.io.IOException;
import java.time.Duration;
import org.sessionj.api.SJException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.types.Side;

/**
 * The accepter side: an acceptor group (its setup transports on the session port, its other session
 * transports on ports of their own) and the negotiation of each request, run by {@link Handshakes}
 * off the accepting thread, so that {@link #accept} returns only compatible sessions.
 */
public final class SessionServerSocket implements SJServerSocket {
    /** Whether the first session's caller was looked at ({@link ProtocolRegistry#forSession}); a race looks twice. */
    private volatile boolean callerLooked;
    private final CompiledProtocol protocol;
    private final AcceptorGroup acceptors;
    private final SessionContext context;
    private final Handshakes handshakes;

    public SessionServerSocket(CompiledProtocol protocol, int port, TransportManager.Plan plan,
            SessionContext context) {
        if (protocol.declaredSide() == null) {
            throw new SJException("protocol " + protocol.name() + " has no begin (cbegin or sbegin): it types part of a"
                    + " session (a @Session socket parameter, a @(…) reference, a delegated payload); a server socket"
                    + " needs a protocol that begins with sbegin");
        }
        if (protocol.declaredSide() == Side.REQUEST) {
            throw new SJException("protocol " + protocol.name() + " begins with cbegin: it is the requesting side's"
                    + " (use it with SJService.create); a server socket needs the accepting side's protocol");
        }
        this.protocol = protocol;
        this.context = context;
        if (plan.setup().isEmpty()) {
            throw new SJException("a server socket needs a setup transport to serve its session port; none is"
                    + " configured or enabled by default");
        }
        this.acceptors = context.transports().listen(plan, port);
        this.handshakes = new Handshakes(acceptors, protocol, context);
        handshakes.start(); // requests are answered from now on, whether or not accept() waits yet
    }

    @Override
    public SJSocket accept() {
        return accept(-1);
    }

    @Override
    public SJSocket accept(Duration timeout) {
        return accept(timeout.toNanos());
    }

    private SJSocket accept(long timeoutNanos) {
        if (!callerLooked) { // the class running the session may not be the one that created this
            callerLooked = true; // one stack walk (~2 µs) per service object, not per session (issue 15's set-up rate)
            ProtocolRegistry.forSession(protocol);
        }
        SessionSocket session;
        try {
            session = handshakes.next(timeoutNanos);
        } catch (IOException e) {
            throw new SJIOException("accept on session port " + port() + " failed: " + e.getMessage(), e);
        }
        if (session == null) {
            throw new SJTimeoutException("no session request on port " + port() + " within "
                    + Duration.ofNanos(timeoutNanos));
        }
        session.claimOwner(); // the accepting thread has the session until a thread acts on it (adv18 A13)
        return session;
    }

    /**
     * How many session requests this socket refused or lost in their handshake (malformed,
     * incompatible, not finished within the initiation timeout); {@code accept()} never reports them.
     */
    public long failedHandshakes() {
        return handshakes.failures();
    }

    /** Sets the one listener told the reason of each refused or lost session request (null: none). */
    public void onFailedHandshake(java.util.function.Consumer<? super SJException> listener) {
        handshakes.failureListener(listener);
    }

    /** Handshakes in progress plus agreed sessions not yet taken by {@code accept()}. */
    public int pendingHandshakes() {
        return handshakes.pending();
    }

    /** The session transports this socket offers, with the port each listens on. */
    public java.util.List<org.sessionj.runtime.internal.transport.Negotiation.Offer> offers() {
        return acceptors.offers();
    }

    @Override
    public int port() {
        return acceptors.port();
    }

    @Override
    public void close() {
        acceptors.close();
        handshakes.close();
    }
}
