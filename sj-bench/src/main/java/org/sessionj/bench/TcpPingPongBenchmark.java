package org.sessionj.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
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
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.jctools.queues.SpscUnboundedArrayQueue;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.transport.tcp.TcpTransport;

/**
 * Round trip of one {@code int} over TCP loopback, with a blocking caller and an echoing peer: an SJ
 * session over the {@code tcp} transport, the transport's bare {@link Connection} at both ends (echo on
 * its own thread), raw Netty
 * (echo on the server's event loop, or on a thread it hands each message to; the caller hands off
 * to and from the client's event loop the cheapest way it can: a volatile and spin-then-park), and
 * {@code java.net.Socket} with data streams (echo on its own thread).
 *
 * <p>Run from the worktree root (see the report for figures, unpinned and with {@code taskset -c 0}):
 * <pre>
 * ./mvnw -q -pl sj-bench -am package -DskipTests
 * java -jar sj-bench/target/benchmarks.jar TcpPingPong
 * taskset -c 0 java -jar sj-bench/target/benchmarks.jar TcpPingPong
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class TcpPingPongBenchmark {
    /** The same spin-then-park policy as the tcp transport's readers. */
    private static final int SPINS = NettySettings.defaultSpins();

    /** Both ends on the {@code tcp} transport. */
    @State(Scope.Thread)
    public static class SjTcp {
        /** {@code sessionj.tcp.io}: event loops, or blocking sockets on the session threads. */
        @Param({"eventloop", "blocking"})
        String io;

        EchoConnections pair;
        Connection client;
        int next;

        @Setup(Level.Trial)
        public void open() throws IOException {
            System.setProperty("sessionj.tcp.io", io);
            pair = new EchoConnections(new TcpTransport(), "127.0.0.1", "sj-echo");
            client = pair.client;
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            pair.close();
        }
    }

    /** An SJ session ({@code cbegin.![!<int>.?(int)]*}) over the {@code tcp} transport, echo on its own thread. */
    @State(Scope.Thread)
    public static class SjTcpSession {
        /** {@code sessionj.tcp.io} of both ends. */
        @Param({"eventloop", "blocking"})
        String io;

        EchoSession session;
        SJSocket socket;
        int next;

        @Setup(Level.Trial)
        public void open() {
            System.setProperty("sessionj.tcp.io", io); // read by the runtime's new TcpTransport
            session = new EchoSession(SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build()), "sj-session-echo");
            socket = session.socket;
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            session.close();
        }
    }

    /**
     * Raw Netty: an echoing server and a client handler that hands the reply to the caller. The echo
     * runs on the server's event loop, or (like any blocking session peer) on its own thread that the
     * event loop hands each message to.
     */
    @State(Scope.Thread)
    public static class RawNetty {
        @Param({"eventLoop", "thread"})
        String echoOn;

        EventLoopGroup group;
        Channel serverChannel;
        Channel client;
        final Reply reply = new Reply();
        final Handoff handoff = new Handoff();
        int next;

        @Setup(Level.Trial)
        public void open() throws InterruptedException {
            boolean epoll = Epoll.isAvailable();
            group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("raw-netty", true),
                    epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
            Class<? extends ServerChannel> serverClass = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
            Class<? extends SocketChannel> clientClass = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
            serverChannel = new ServerBootstrap().group(group).channel(serverClass)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (echoOn.equals("thread")) {
                                handoff.start(ch);
                                ch.pipeline().addLast(handoff);
                            } else {
                                ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                        ctx.writeAndFlush(msg, ctx.voidPromise());
                                    }
                                });
                            }
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            int port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
            client = new Bootstrap().group(group).channel(clientClass)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(reply);
                        }
                    })
                    .connect("127.0.0.1", port).sync().channel();
        }

        @TearDown(Level.Trial)
        public void close() {
            handoff.stop();
            client.close().syncUninterruptibly();
            serverChannel.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** Server side: hands each received buffer to an echo thread (spin then park), which writes it back. */
    static final class Handoff extends ChannelInboundHandlerAdapter {
        private final SpscUnboundedArrayQueue<Object> queue = new SpscUnboundedArrayQueue<>(64);
        private volatile Thread echo;
        private volatile boolean stopped;

        void start(Channel channel) {
            echo = Thread.ofPlatform().daemon().name("netty-echo").start(() -> {
                while (!stopped) {
                    Object msg = queue.poll();
                    for (int i = 0; msg == null && i < SPINS; i++) {
                        Thread.onSpinWait();
                        msg = queue.poll();
                    }
                    if (msg == null) {
                        LockSupport.park(this);
                        continue;
                    }
                    channel.writeAndFlush(msg, channel.voidPromise());
                }
            });
        }

        void stop() {
            stopped = true;
            Thread t = echo;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            queue.offer(msg);
            LockSupport.unpark(echo);
        }
    }

    /** Collects the four bytes of the echoed int and wakes the caller. */
    static final class Reply extends ChannelInboundHandlerAdapter {
        private int value;
        private int bytes;
        private volatile boolean ready;
        private volatile Thread waiter;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                while (buf.isReadable()) {
                    value = (value << 8) | buf.readUnsignedByte();
                    if (++bytes == 4) {
                        bytes = 0;
                        ready = true;
                        Thread w = waiter;
                        if (w != null) {
                            LockSupport.unpark(w);
                        }
                    }
                }
            } finally {
                buf.release();
            }
        }

        int await() {
            for (int i = 0; i < SPINS && !ready; i++) {
                Thread.onSpinWait();
            }
            if (!ready) {
                waiter = Thread.currentThread();
                while (!ready) {
                    LockSupport.park(this);
                }
                waiter = null;
            }
            ready = false;
            return value;
        }
    }

    /** {@code java.net.Socket} with buffered data streams at both ends. */
    @State(Scope.Thread)
    public static class PlainSocket {
        ServerSocket listener;
        Socket client;
        DataInputStream in;
        DataOutputStream out;
        Thread echo;
        int next;

        @Setup(Level.Trial)
        public void open() throws IOException {
            listener = new ServerSocket(0);
            client = new Socket("127.0.0.1", listener.getLocalPort());
            client.setTcpNoDelay(true);
            Socket server = listener.accept();
            server.setTcpNoDelay(true);
            in = new DataInputStream(new BufferedInputStream(client.getInputStream()));
            out = new DataOutputStream(new BufferedOutputStream(client.getOutputStream()));
            echo = Thread.ofPlatform().daemon().name("socket-echo").start(() -> {
                try (server) {
                    DataInputStream serverIn = new DataInputStream(new BufferedInputStream(server.getInputStream()));
                    DataOutputStream serverOut = new DataOutputStream(new BufferedOutputStream(server.getOutputStream()));
                    while (true) {
                        serverOut.writeInt(serverIn.readInt());
                        serverOut.flush();
                    }
                } catch (IOException closed) {
                    // the benchmark is over
                }
            });
        }

        @TearDown(Level.Trial)
        public void close() throws IOException, InterruptedException {
            client.close();
            echo.join(10_000);
            listener.close();
        }
    }

    @Benchmark
    public int sjTcpConnection(SjTcp s) throws IOException {
        ByteBuf ping = s.client.alloc().buffer(4).writeInt(s.next++);
        s.client.write(ping);
        s.client.flush();
        ByteBuf pong = s.client.read(-1);
        try {
            return pong.readInt();
        } finally {
            pong.release();
        }
    }

    @Benchmark
    public int sjTcpSession(SjTcpSession state) {
        SJSocket s = state.socket;
        s.outwhile(true);
        s.send(state.next++ & 0xffff);
        return s.receiveInt();
    }

    @Benchmark
    public int rawNettyEcho(RawNetty s) {
        s.client.writeAndFlush(s.client.alloc().buffer(4).writeInt(s.next++), s.client.voidPromise());
        return s.reply.await();
    }

    @Benchmark
    public int socketDataStreams(PlainSocket s) throws IOException {
        s.out.writeInt(s.next++);
        s.out.flush();
        return s.in.readInt();
    }
}
