package org.sessionj.transport.tcp;

import com.google.auto.service.AutoService;
import java.io.IOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.transport.netty.internal.BlockingTcp;
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
 *
 * <p>Two ways to run the sockets, {@code sessionj.tcp.io} (see {@link IoMode}): on Netty's event
 * loops (the default: many sessions on few threads, selectors served directly), or read and written
 * by each session's own thread with blocking calls, so that the kernel wakes the session thread
 * itself (fewer thread wake-ups per round trip: faster with a few busy sessions). The wire is the
 * same, so the two ends may differ.
 */
@AutoService(Transport.class)
public final class TcpTransport implements Transport {
    /** The configuration name of this transport. */
    public static final String NAME = "tcp";

    /** How the sockets are read and written. */
    public enum IoMode {
        /** Netty event loops read and write; session threads hand frames to and from them (the default). */
        EVENT_LOOP,
        /** Each session's own thread reads and writes its socket with blocking calls. */
        BLOCKING;

        /**
         * The mode set by {@code sessionj.tcp.io}: {@code eventloop} (default) or {@code blocking}.
         *
         * @throws IllegalArgumentException for any other value
         */
        public static IoMode fromSystemProperties() {
            String value = SystemSettings.system().string("tcp.io", "eventloop");
            return switch (value) {
                case "eventloop" -> EVENT_LOOP;
                case "blocking" -> BLOCKING;
                default -> throw SystemSettings.invalid("tcp.io", "eventloop or blocking", value);
            };
        }
    }

    private final NettyTransportSupport support;
    private final BlockingTcp blocking;

    /** A TCP transport configured from system properties. */
    public TcpTransport() {
        this(NettySettings.fromSystemProperties(), IoMode.fromSystemProperties());
    }

    /** A TCP transport with explicit settings, on the event loops. */
    public TcpTransport(NettySettings settings) {
        this(settings, IoMode.EVENT_LOOP);
    }

    /** A TCP transport with explicit settings and I/O mode. */
    public TcpTransport(NettySettings settings, IoMode mode) {
        this.support = new NettyTransportSupport(NAME, settings, new PlainChannelSetup(NAME, settings));
        this.blocking = mode == IoMode.BLOCKING ? new BlockingTcp(NAME, settings) : null;
    }

    /** How this transport's sockets are read and written. */
    public IoMode ioMode() {
        return blocking != null ? IoMode.BLOCKING : IoMode.EVENT_LOOP;
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
        return blocking != null ? blocking.listen(port) : support.listen(port);
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        return blocking != null ? blocking.connect(host, port, timeoutNanos) : support.connect(host, port, timeoutNanos);
    }

    @Override
    public boolean canReach(String host, int port) {
        return LocalPorts.canReach(host, port);
    }
}
