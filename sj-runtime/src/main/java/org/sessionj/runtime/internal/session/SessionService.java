package org.sessionj.runtime.internal.session;

import org.sessionj.api.SJException;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.types.Side;

/** The requester side of a session service: where it is and which protocol its sessions follow. */
public final class SessionService implements SJService {
    /** Whether the first session's caller was looked at ({@link ProtocolRegistry#forSession}); a race looks twice. */
    private volatile boolean callerLooked;
    private final CompiledProtocol protocol;
    private final String host;
    private final int port;
    private final TransportManager.Plan plan;
    private final SessionContext context;

    public SessionService(CompiledProtocol protocol, String host, int port, TransportManager.Plan plan,
            SessionContext context) {
        if (protocol.declaredSide() == null) {
            throw new SJException("protocol " + protocol.name() + " has no begin (cbegin or sbegin): it types part of a"
                    + " session (a @Session socket parameter, a @(…) reference, a delegated payload); a service needs a"
                    + " protocol that begins with cbegin");
        }
        if (protocol.declaredSide() == Side.ACCEPT) {
            throw new SJException("protocol " + protocol.name() + " begins with sbegin: it is the accepting side's"
                    + " (use it with SJServerSocket.create); a service needs the requesting side's protocol");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("session port must be in 1..65535, got " + port);
        }
        java.util.Objects.requireNonNull(host, "host");
        if (host.isBlank() || !host.strip().equals(host)) {
            // adv15 A24: an empty host used to fail each request as "cannot reach it", like a server that is down.
            throw new IllegalArgumentException("host must name the server (a host name or an address), got '" + host
                    + "'");
        }
        this.protocol = protocol;
        this.host = host;
        this.port = port;
        this.plan = plan;
        this.context = context;
    }

    @Override
    public SJSocket request() {
        if (!callerLooked) { // the class running the session may not be the one that created this
            callerLooked = true; // one stack walk (~2 µs) per service object, not per session (issue 15's set-up rate)
            ProtocolRegistry.forSession(protocol);
        }
        return Initiation.request(plan, host, port, protocol, context);
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String protocol() {
        return protocol.textFor(Side.REQUEST);
    }

    @Override
    public String toString() {
        return "SJService[" + host + ":" + port + ", " + protocol() + "]";
    }
}
