package org.sessionj.transport.netty.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;

/**
 * Listening and connecting for TCP with blocking sockets read and written by the sessions' own
 * threads ({@code sessionj.tcp.io=blocking}); the event-loop path is {@link NettyTransportSupport}.
 */
public final class BlockingTcp {
    private final String transportName;
    private final NettySettings settings;

    /** Blocking TCP for the transport {@code transportName}. */
    public BlockingTcp(String transportName, NettySettings settings) {
        this.transportName = transportName;
        this.settings = settings;
    }

    /** Opens a listening socket on TCP port {@code port} (0: any free port) on {@code sessionj.bindAddress}, by default every interface. */
    public ConnectionAcceptor listen(int port) throws IOException {
        return BlockingAcceptor.listen(port, transportName, settings);
    }

    /** Connects to {@code host:port}, waiting at most {@code timeoutNanos} (negative: 30 s). */
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        InetSocketAddress address = TcpAddresses.connecting(host, port, transportName);
        int millis = TcpAddresses.connectMillis(timeoutNanos);
        SocketChannel channel = SocketChannel.open();
        try {
            channel.socket().connect(address, millis);
            return new BlockingConnection(channel, transportName, settings).start();
        } catch (SocketTimeoutException e) {
            channel.close();
            throw new IOException("timed out connecting to " + host + ":" + port + " (" + transportName + ")");
        } catch (ClosedByInterruptException e) {
            channel.close();
            throw new InterruptedIOException("interrupted while connecting to " + host + ":" + port);
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot connect to " + host + ":" + port + " (" + transportName + "): "
                    + e.getMessage(), e);
        }
    }
}
