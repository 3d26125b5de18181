package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannelConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.tcp.TcpTransport;

/** A requester's channel, built without a Bootstrap, has the options a Bootstrap gave it, and fails cleanly. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NettyConnectTest {
    private static final long TEN_SECONDS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void aConnectedChannelHasTheTransportsOptions() throws IOException {
        NettySettings settings = NettySettings.fromSystemProperties();
        TcpTransport tcp = new TcpTransport(settings);
        try (ConnectionAcceptor acceptor = tcp.listen(0);
                Connection requester = tcp.connect("localhost", acceptor.port(), TEN_SECONDS)) {
            SocketChannelConfig config = (SocketChannelConfig) ((NettyConnection) requester).channel().config();
            assertThat(config.isTcpNoDelay()).isTrue();
            assertThat(config.isKeepAlive()).isTrue();
            assertThat(config.getAllocator()).isSameAs(PooledByteBufAllocator.DEFAULT);
            assertThat(config.getWriteBufferHighWaterMark()).isEqualTo(settings.outboundHighBytes());
            assertThat(config.getWriteBufferLowWaterMark()).isEqualTo(settings.outboundLowBytes());
            assertThat(config.getOption(ChannelOption.CONNECT_TIMEOUT_MILLIS)).isEqualTo(10_000);
            assertThat(((NettyConnection) requester).channel().isActive()).isTrue();
            acceptor.accept(TEN_SECONDS).close();
        }
    }

    @Test
    void aPortNobodyListensOnFailsTheConnectNamingIt() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        int closedPort = port;
        assertThatThrownBy(() -> new TcpTransport(NettySettings.fromSystemProperties()).connect("localhost", closedPort, TEN_SECONDS))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot connect to localhost:" + closedPort + " (tcp)");
    }
}
