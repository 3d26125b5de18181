package org.sessionj.runtime.internal.session;

import java.io.IOException;
import java.time.Duration;
import org.sessionj.api.SJException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.types.Side;

/** The accepter side: listens on a session port on every configured transport. */
public final class SessionServerSocket implements SJServerSocket {
    private final CompiledProtocol protocol;
    private final AcceptorGroup acceptors;
    private final SJRuntimeConfig config;

    public SessionServerSocket(CompiledProtocol protocol, int port, TransportManager transports, SJRuntimeConfig config) {
        if (protocol.declaredSide() == Side.REQUEST) {
            throw new SJException("protocol " + protocol.name() + " begins with cbegin: it is the requesting side's"
                    + " (use it with SJService.create); a server socket needs the accepting side's protocol");
        }
        this.protocol = protocol;
        this.config = config;
        this.acceptors = transports.listen(port);
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
        Connection connection;
        try {
            connection = acceptors.accept(timeoutNanos);
        } catch (IOException e) {
            throw new SJIOException("accept on session port " + port() + " failed: " + e.getMessage(), e);
        }
        if (connection == null) {
            throw new SJTimeoutException("no session request on port " + port() + " within " + Duration.ofNanos(timeoutNanos));
        }
        return Initiation.accept(connection, protocol, config);
    }

    @Override
    public int port() {
        return acceptors.port();
    }

    @Override
    public void close() {
        acceptors.close();
    }
}
