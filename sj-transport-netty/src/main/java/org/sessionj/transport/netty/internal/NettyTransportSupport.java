package org.sessionj.transport.netty.internal;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;

/**
 * Listening and connecting for the Netty transports: the socket options, the shared event loops and
 * the waiting; what goes into the pipeline is the {@link ChannelSetup}'s business.
 */
public final class NettyTransportSupport {
    private static final System.Logger LOG = System.getLogger(NettyTransportSupport.class.getName());

    private final String transportName;
    private final NettySettings settings;
    private final ChannelSetup setup;

    /** Support for the transport {@code transportName}. */
    public NettyTransportSupport(String transportName, NettySettings settings, ChannelSetup setup) {
        this.transportName = transportName;
        this.settings = settings;
        this.setup = setup;
    }

    /** The settings in force. */
    public NettySettings settings() {
        return settings;
    }

    /** Which event loops these connections use: {@code "epoll"} or {@code "nio"}. */
    public String eventLoopKind() {
        return EventLoops.shared(settings.preferNative()).kind();
    }

    private WriteBufferWaterMark waterMark() {
        return new WriteBufferWaterMark(settings.outboundLowBytes(), settings.outboundHighBytes());
    }

    /**
     * Opens a listening socket on TCP port {@code port} (0: any free port) on the address
     * {@code sessionj.bindAddress} names, by default every interface.
     */
    public ConnectionAcceptor listen(int port) throws IOException {
        InetSocketAddress local = TcpAddresses.listening(port, transportName);
        EventLoops loops = EventLoops.shared(settings.preferNative());
        NettyAcceptor acceptor = new NettyAcceptor(transportName, setup.hasHandshake(), setup::handshakeFailure);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loops.group())
                .channel(loops.serverChannel())
                // The kernel's limit (somaxconn), not 1024: a burst of connects past the backlog is dropped and
                // retried by the clients after a second or more, whatever the event loop could take.
                .option(ChannelOption.SO_BACKLOG, io.netty.util.NetUtil.SOMAXCONN)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        try {
                            setup.initAccepted(channel, acceptor::enqueue);
                            acceptor.admit(channel);
                        } catch (RuntimeException | LinkageError e) {
                            LOG.log(System.Logger.Level.WARNING, "cannot set up an accepted " + transportName
                                    + " connection; closing it", e);
                            channel.close();
                        }
                    }
                });
        ChannelFuture bind = bootstrap.bind(local);
        try {
            Futures.bridge(bind).get();
        } catch (InterruptedException e) {
            bind.channel().close();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while binding " + transportName + " port " + port);
        } catch (ExecutionException e) {
            throw LocalPorts.listenFailure("cannot listen on TCP port " + port + " of "
                    + local.getAddress().getHostAddress() + " (" + transportName + "): "
                    + InboundQueue.reason(e.getCause()), e.getCause());
        }
        int boundPort = ((InetSocketAddress) bind.channel().localAddress()).getPort();
        acceptor.bound(bind.channel(), boundPort);
        return acceptor;
    }

    /**
     * Connects to {@code host:port} and waits until the setup says the connection is usable.
     *
     * <p>The channel is created, registered and connected by a task on its event loop, not by the
     * calling thread: Netty caches per thread what it learns about a pipeline's handler classes (by
     * reflection) and its buffer pools keep a cache per thread, so a requester on a fresh virtual
     * thread per session paid both anew for every connection (8 % of a requester's CPU in the
     * accept-load test, docs/reliability.md); and registering from outside the loop costs one more
     * task hand-off to it. Nor does it go through a Netty {@code Bootstrap}: that copied its option map into
     * an array, built the channel by reflection and ran an address resolver, per connection (7 % of a
     * requester's CPU in the same test); the options are set on the channel's config directly
     * (the server side keeps its {@code ServerBootstrap}: it runs once per listening socket).
     */
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        InetSocketAddress address = TcpAddresses.connecting(host, port, transportName);
        EventLoop loop = EventLoops.shared(settings.preferNative()).group().next();
        CompletableFuture<NettyConnection> ready = new CompletableFuture<>();
        int connectMillis = TcpAddresses.connectMillis(timeoutNanos);
        EventLoops loops = EventLoops.shared(settings.preferNative());
        Runnable start = () -> {
            if (ready.isDone()) {
                return; // the caller gave up (timeout, interrupt) before the loop got here
            }
            io.netty.channel.socket.SocketChannel channel;
            try {
                channel = loops.newSocketChannel();
            } catch (RuntimeException e) { // ChannelException: no socket (descriptors exhausted)
                ready.completeExceptionally(new IOException("cannot connect to " + host + ":" + port + " ("
                        + transportName + "): " + InboundQueue.reason(e), e));
                return;
            }
            try {
                io.netty.channel.socket.SocketChannelConfig config = channel.config();
                config.setAllocator(PooledByteBufAllocator.DEFAULT);
                config.setTcpNoDelay(true);
                config.setKeepAlive(true);
                config.setConnectTimeoutMillis(connectMillis);
                config.setWriteBufferWaterMark(waterMark());
                setup.initConnecting(channel, host, port, ready);
            } catch (RuntimeException | LinkageError e) {
                ready.completeExceptionally(new IOException("cannot set up a " + transportName
                        + " connection to " + host + ":" + port + ": " + e, e));
                channel.unsafe().closeForcibly();
                return;
            }
            // However the wait ends without a connection (failure, timeout, interrupt), the channel closes.
            ready.whenComplete((connection, failure) -> {
                if (failure != null) {
                    channel.close();
                }
            });
            loop.register(channel).addListener(registered -> {
                if (!registered.isSuccess()) {
                    ready.completeExceptionally(new IOException("cannot connect to " + host + ":" + port + " ("
                            + transportName + "): " + InboundQueue.reason(registered.cause()), registered.cause()));
                    channel.unsafe().closeForcibly();
                    return;
                }
                channel.connect(address).addListener(f -> {
                    if (!f.isSuccess()) {
                        ready.completeExceptionally(new IOException("cannot connect to " + host + ":" + port + " ("
                                + transportName + "): " + InboundQueue.reason(f.cause()), f.cause()));
                    }
                });
            });
        };
        try {
            loop.execute(start);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new IOException("cannot connect to " + host + ":" + port + " (" + transportName
                    + "): the event loops are shut down", e);
        }
        try {
            return timeoutNanos < 0 ? ready.get() : ready.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            if (!ready.completeExceptionally(e) && !ready.isCompletedExceptionally()) {
                ready.getNow(null).close(); // connected just as the interrupt came: nobody will use it
            }
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while connecting to " + host + ":" + port);
        } catch (TimeoutException e) {
            if (!ready.completeExceptionally(e)) {
                NettyConnection late = ready.getNow(null);
                if (late != null) {
                    return late; // connected just as the wait ended
                }
            }
            throw new IOException("timed out connecting to " + host + ":" + port + " (" + transportName + ")");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw new IOException(io.getMessage(), io);
            }
            throw new IOException("cannot connect to " + host + ":" + port + " (" + transportName + "): "
                    + InboundQueue.reason(e.getCause()), e.getCause());
        }
    }
}
