package org.sessionj.transport.netty.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The event loop group shared by every Netty transport in the JVM (daemon threads, created on first
 * use), with the channel classes that match it: native epoll when it loads, NIO otherwise.
 *
 * @param group the event loops
 * @param socketChannel the client channel class
 * @param serverChannel the server channel class
 * @param kind {@code "epoll"} or {@code "nio"}
 */
public record EventLoops(
        EventLoopGroup group,
        Class<? extends SocketChannel> socketChannel,
        Class<? extends ServerChannel> serverChannel,
        String kind) {
    private static final System.Logger LOG = System.getLogger(EventLoops.class.getName());

    /** A new, unregistered client channel of {@link #socketChannel()}'s class (no reflection). */
    public SocketChannel newSocketChannel() {
        return socketChannel == EpollSocketChannel.class ? new EpollSocketChannel() : new NioSocketChannel();
    }

    /** The shared loops: native when {@code preferNative} and epoll is available, NIO otherwise. */
    public static EventLoops shared(boolean preferNative) {
        return preferNative && Epoll.isAvailable() ? NativeHolder.LOOPS : NioHolder.LOOPS;
    }

    private static int threads() {
        return org.sessionj.runtime.spi.support.SystemSettings.system().integer("netty.threads", Runtime.getRuntime().availableProcessors());
    }

    private static EventLoopGroup group(String kind, IoHandlerFactory factory) {
        return new MultiThreadIoEventLoopGroup(threads(), new DefaultThreadFactory("sj-netty-" + kind, true), factory);
    }

    /** Created on first use of the native loops (class initialisation is lazy and thread-safe). */
    private static final class NativeHolder {
        static final EventLoops LOOPS = create();

        private static EventLoops create() {
            LOG.log(System.Logger.Level.DEBUG, "sj netty transports: using native epoll");
            return new EventLoops(group("epoll", EpollIoHandler.newFactory()), EpollSocketChannel.class,
                    EpollServerSocketChannel.class, "epoll");
        }
    }

    /** Created on first use of the NIO loops. */
    private static final class NioHolder {
        static final EventLoops LOOPS = create();

        private static EventLoops create() {
            Throwable why = Epoll.unavailabilityCause();
            LOG.log(System.Logger.Level.DEBUG, () -> "sj netty transports: using NIO"
                    + (why == null ? " (native transports not requested)" : " (epoll unavailable: " + why + ")"));
            return new EventLoops(group("nio", NioIoHandler.newFactory()), NioSocketChannel.class,
                    NioServerSocketChannel.class, "nio");
        }
    }
}
