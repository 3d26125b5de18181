package org.sessionj.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.Particle;
import org.sessionj.bench.BenchProtocols.ParticlesClient;
import org.sessionj.bench.BenchProtocols.ParticlesServer;
import org.sessionj.bench.BenchProtocols.PingClient;
import org.sessionj.bench.BenchProtocols.PingServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.http.relay.HttpRelay;

/**
 * SJ sessions over the http transport against tcp and against a plain Netty HTTP echo, peers in the
 * same run (issue 17): an {@code int} round trip, a round trip of 500 particles (16.5 KB each way), and
 * a batched {@code outwhile} stream of ints. {@code path} is {@code tcp}, {@code ws} (http direct over
 * WebSocket), {@code poll} (http direct over long polling), {@code relay-ws}, {@code relay-poll}
 * (through an in-process relay). {@code NettyHttpEcho} is what a user would write by hand: a kept-alive
 * HTTP/1.1 POST whose response echoes the body; {@code NettyWebSocketEcho} the same over Netty's
 * WebSocket frame codec (masked binary frames up, unmasked down, no handshake): the floors of the
 * long-polling and WebSocket rows, the work of the HTTP or WebSocket codec and two thread hand-offs
 * per round trip with no session on top.
 *
 * <pre>
 * ./mvnw -q -pl sj-bench -am package -DskipTests
 * java -jar sj-bench/target/benchmarks.jar HttpTransport -f 1 -wi 2 -i 3 -w 1 -r 2
 * taskset -c 0 java -jar sj-bench/target/benchmarks.jar HttpTransport -f 1 -wi 15 -i 3 -w 2 -r 2
 * </pre>
 *
 * <p>Pinned to one vCPU, C2 shares the core with the benchmark: the HTTP paths' code (codec, pipeline,
 * streams) is still being compiled 20 s into a run, so a short warm-up measures the compiler, not the
 * transport (docs/http-transport.md, run G).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class HttpTransportBenchmark {
    private static final int STREAM_BATCH = 1000;
    private static final int PARTICLES = 500;

    /** Ints one way for as long as the requester likes. */
    @Protocol("cbegin.![!<int>]*")
    public interface StreamSource {
    }

    /** The dual of {@link StreamSource}. */
    @Protocol("^(StreamSource)")
    public interface StreamSink {
    }

    /** Two SJ runtimes' worth of one path: the relay if any, and a runtime whose only transport is the path's. */
    @State(Scope.Benchmark)
    public static class Path {
        @Param({"tcp", "ws", "poll", "relay-ws", "relay-poll"})
        String path;

        HttpRelay relay;
        SJRuntime runtime;

        @Setup(Level.Trial)
        public void open() throws IOException {
            System.setProperty("sessionj.http.websocket", String.valueOf(path.endsWith("ws")));
            if (path.startsWith("relay")) {
                relay = HttpRelay.start(0);
                System.setProperty("sessionj.http.relay", "127.0.0.1:" + relay.port());
            }
            runtime = SJRuntime.create(SJRuntimeConfig.builder().transports(path.equals("tcp") ? "tcp" : "http").build());
        }

        @TearDown(Level.Trial)
        public void close() {
            if (relay != null) {
                relay.close();
            }
            System.clearProperty("sessionj.http.relay");
            System.clearProperty("sessionj.http.websocket");
        }

        void check(SJSocket session) {
            String expected = path.equals("tcp") ? "tcp" : "http";
            if (!SJRuntime.transportOf(session).equals(expected)) {
                throw new IllegalStateException("expected " + expected + ", got " + SJRuntime.transportOf(session));
            }
        }
    }

    /**
     * A session of one path: a server socket, its accepter serving one session on a thread of its own,
     * and the requester's end (checked to run over the path's transport). Closed by ending the loop.
     */
    public abstract static class Session {
        SJServerSocket server;
        Thread accepter;
        SJSocket session;

        /** Serves the accepted session until the requester ends its loop. */
        abstract void serve(SJSocket accepted);

        void open(Path path, Class<?> serverProtocol, Class<?> clientProtocol, String threadName) {
            server = path.runtime.serverSocket(serverProtocol, 0);
            accepter = Thread.ofPlatform().daemon().name(threadName).start(() -> {
                try (SJSocket s = server.accept()) {
                    serve(s);
                }
            });
            session = path.runtime.service(clientProtocol, "127.0.0.1", server.port()).request();
            path.check(session);
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            session.outwhile(false);
            session.close();
            accepter.join(30_000);
            server.close();
        }
    }

    /** {@code ![!<int>.?(int)]*}, the accepter echoing on its own thread. */
    @State(Scope.Thread)
    public static class Ints extends Session {
        int next;

        @Setup(Level.Trial)
        public void open(Path path) {
            open(path, PingServer.class, PingClient.class, "sj-http-echo");
        }

        @Override
        void serve(SJSocket s) {
            while (s.inwhile()) {
                s.send(s.receiveInt());
            }
        }
    }

    /** {@code ![!<Particle[]>.?(Particle[])]*} with 500 particles, echoed. */
    @State(Scope.Thread)
    public static class Particles extends Session {
        Particle[] particles;

        @Setup(Level.Trial)
        public void open(Path path) {
            open(path, ParticlesServer.class, ParticlesClient.class, "sj-http-particles");
            particles = new Particle[PARTICLES];
            for (int i = 0; i < PARTICLES; i++) {
                particles[i] = new Particle(i, i * 0.5, i * 0.25, 1.0 + i);
            }
        }

        @Override
        void serve(SJSocket s) {
            while (s.inwhile()) {
                Particle[] received = s.receive();
                s.send(received);
            }
        }
    }

    /** {@code ![!<int>]*}: ints streamed one way, batched by the runtime; the accepter reads them. */
    @State(Scope.Thread)
    public static class Stream extends Session {
        int next;

        @Setup(Level.Trial)
        public void open(Path path) {
            open(path, StreamSink.class, StreamSource.class, "sj-http-sink");
        }

        @Override
        void serve(SJSocket s) {
            while (s.inwhile()) {
                s.receiveInt();
            }
        }
    }

    @Benchmark
    public int intRoundTrip(Ints s) {
        s.session.outwhile(true);
        s.session.send(s.next++);
        return s.session.receiveInt();
    }

    @Benchmark
    public Particle[] particlesRoundTrip(Particles s) {
        s.session.outwhile(true);
        s.session.send(s.particles);
        return s.session.receive();
    }

    /** Time per int of a stream (the runtime batches the outputs into 64 KiB frames). */
    @Benchmark
    @OperationsPerInvocation(STREAM_BATCH)
    public void outwhileStream(Stream s) {
        for (int i = 0; i < STREAM_BATCH; i++) {
            s.session.outwhile(true);
            s.session.send(s.next++);
        }
    }

    /**
     * A hand-written echo on Netty: a server and one client connection on two event loops of their own,
     * the server's pipeline echoing, the client's handing each reply ({@code R}) to the benchmark thread
     * as a session's would be. Subclasses give the pipelines.
     */
    public abstract static class NettyEcho<R> {
        EventLoopGroup group;
        Channel server;
        Channel client;
        final SynchronousQueue<R> replies = new SynchronousQueue<>();
        byte[] body;

        /** The server's handlers, echoing each message. */
        abstract ChannelHandler[] serverHandlers();

        /** The client's codec handlers, before the one that hands replies over. */
        abstract ChannelHandler[] clientCodec();

        /** The reply, retained, as the benchmark thread gets it. */
        abstract R retained(Object reply);

        void open(String threads, int messageBytes) throws InterruptedException {
            boolean epoll = Epoll.isAvailable();
            group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory(threads, true),
                    epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
            server = new ServerBootstrap().group(group)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(serverHandlers());
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            client = new Bootstrap().group(group).channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(clientCodec()).addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object reply) throws Exception {
                                    try {
                                        replies.put(retained(reply));
                                    } finally {
                                        ReferenceCountUtil.release(reply);
                                    }
                                }
                            });
                        }
                    })
                    .connect("127.0.0.1", port).sync().channel();
            body = new byte[messageBytes];
        }

        @TearDown(Level.Trial)
        public void close() {
            client.close().syncUninterruptibly();
            server.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /**
     * The hand-written peer: Netty's HTTP codec on both sides, a kept-alive POST whose response echoes
     * its body ({@code size} bytes: 4 for the int, 16 500 for the particles), the reply handed to the
     * benchmark thread as a session's would be.
     */
    @State(Scope.Thread)
    public static class NettyHttpEcho extends NettyEcho<FullHttpResponse> {
        @Param({"4", "16500"})
        int size;

        @Setup(Level.Trial)
        public void open() throws InterruptedException {
            open("http-echo", size);
        }

        @Override
        ChannelHandler[] serverHandlers() {
            return new ChannelHandler[] {new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                new SimpleChannelInboundHandler<FullHttpRequest>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                        ByteBuf content = request.content().retain();
                        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                HttpResponseStatus.OK, content);
                        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
                        ctx.writeAndFlush(response, ctx.voidPromise());
                    }
                }};
        }

        @Override
        ChannelHandler[] clientCodec() {
            return new ChannelHandler[] {new HttpClientCodec(), new HttpObjectAggregator(1 << 20)};
        }

        @Override
        FullHttpResponse retained(Object reply) {
            return ((FullHttpResponse) reply).retain();
        }
    }

    /**
     * The WebSocket floor: Netty's WebSocket frame codec on both sides of a connection (the client masks,
     * as a WebSocket client must), the server echoing each binary frame on its event loop, the reply
     * handed to the benchmark thread as a session's would be.
     */
    @State(Scope.Thread)
    public static class NettyWebSocketEcho extends NettyEcho<BinaryWebSocketFrame> {
        @Param({"4", "16500"})
        int size;

        @Setup(Level.Trial)
        public void open() throws InterruptedException {
            open("ws-echo", size);
        }

        @Override
        ChannelHandler[] serverHandlers() {
            return new ChannelHandler[] {new WebSocket13FrameDecoder(true, false, 1 << 20),
                new WebSocket13FrameEncoder(false),
                new SimpleChannelInboundHandler<BinaryWebSocketFrame>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, BinaryWebSocketFrame frame) {
                        ctx.writeAndFlush(frame.retain(), ctx.voidPromise());
                    }
                }};
        }

        @Override
        ChannelHandler[] clientCodec() {
            return new ChannelHandler[] {new WebSocket13FrameDecoder(false, false, 1 << 20),
                new WebSocket13FrameEncoder(true)};
        }

        @Override
        BinaryWebSocketFrame retained(Object reply) {
            return ((BinaryWebSocketFrame) reply).retain();
        }
    }

    @Benchmark
    public int nettyWebSocketEcho(NettyWebSocketEcho s) throws InterruptedException {
        s.client.writeAndFlush(new BinaryWebSocketFrame(s.client.alloc().buffer(s.size).writeBytes(s.body)),
                s.client.voidPromise());
        BinaryWebSocketFrame reply = s.replies.take();
        int length = reply.content().readableBytes();
        reply.release();
        return length;
    }

    @Benchmark
    public int nettyHttpEcho(NettyHttpEcho s) throws InterruptedException {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/echo",
                s.client.alloc().buffer(s.size).writeBytes(s.body));
        request.headers().set(HttpHeaderNames.HOST, "127.0.0.1");
        request.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, s.size);
        s.client.writeAndFlush(request, s.client.voidPromise());
        FullHttpResponse response = s.replies.take();
        int length = response.content().readableBytes();
        response.release();
        return length;
    }
}
