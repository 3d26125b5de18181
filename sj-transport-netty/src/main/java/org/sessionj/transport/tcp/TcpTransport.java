package org.sessionj.transport.tcp;

import com.google.auto.service.AutoService;
import java.io.IOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.transport.netty.internal.LocalPorts;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.transport.netty.internal.NettyTransportSupport;
import org.sessionj.transport.netty.internal.PlainChannelSetup;

/**
 * The TCP transport ({@code "tcp"}): session port = TCP port, frames behind a 4-byte length, over
 * Netty (native epoll when available) with {@code TCP_NODELAY} and pooled direct buffers.
 *
 * <p>Configured by system properties (see {@link NettySettings#fromSystemProperties()}); the
 * largest frame is {@code sessionj.tcp.maxFrameBytes} (16 MiB by default).
 */
@AutoService(Transport.class)
public final class TcpTransport implements Transport {
    /** The configuration name of this transport. */
    public static final String NAME = "tcp";

    private final NettyTransportSupport support;

    /** A TCP transport configured from system properties. */
    public TcpTransport() {
        this(NettySettings.fromSystemProperties());
    }

    /** A TCP transport with explicit settings. */
    public TcpTransport(NettySettings settings) {
        this.support = new NettyTransportSupport(NAME, settings, new PlainChannelSetup(NAME, settings));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Which event loops carry the connections: {@code "epoll"} or {@code "nio"}. */
    public String eventLoopKind() {
        return support.eventLoopKind();
    }

    /** Session ports are TCP ports, shared with the other TCP-based transports. */
    @Override
    public String portSpace() {
        return "tcp-port";
    }

    @Override
    public ConnectionAcceptor listen(int port) throws IOException {
        return support.listen(port);
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        return support.connect(host, port, timeoutNanos);
    }

    @Override
    public boolean canReach(String host, int port) {
        return LocalPorts.canReach(host, port);
    }
}
