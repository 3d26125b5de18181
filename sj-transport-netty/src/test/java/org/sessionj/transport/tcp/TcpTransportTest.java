package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.epoll.Epoll;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettyConnection;
import org.sessionj.transport.netty.internal.NettySettings;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpTransportTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final TcpTransport transport = new TcpTransport();

    /** A raw socket into a fresh acceptor, and the connection the acceptor made of it. */
    private record RawPeer(Socket socket, DataOutputStream out, Connection accepted) {
    }

    private RawPeer rawPeer(Transport t) throws IOException {
        ConnectionAcceptor acceptor = track(t.listen(0));
        Socket socket = track(new Socket("localhost", acceptor.port()));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        assertThat(accepted).isNotNull();
        return new RawPeer(socket, new DataOutputStream(socket.getOutputStream()), accepted);
    }

    /**
     * An accepted connection names its peer's address, by which a server at its pending-handshake limit
     * drops the stalled handshakes of the address holding the most slots first (hostile17 H5).
     */
    @Test
    void anAcceptedConnectionNamesItsPeersAddress() throws IOException {
        RawPeer peer = rawPeer(transport);
        assertThat(peer.accepted().peerAddress()).isEqualTo(peer.socket().getLocalAddress());
    }

    @Test
    void isFoundByTheServiceLoader() {
        assertThat(ServiceLoader.load(Transport.class).stream().map(p -> p.get().name())).contains("tcp");
    }

    @Test
    void usesNativeEpollWhenItLoads() {
        assertThat(transport.eventLoopKind()).isEqualTo(Epoll.isAvailable() ? "epoll" : "nio");
    }

    private static final org.sessionj.runtime.spi.support.Heartbeat FAST_HEARTBEAT =
            new org.sessionj.runtime.spi.support.Heartbeat(TimeUnit.MILLISECONDS.toNanos(100),
                    TimeUnit.MILLISECONDS.toNanos(600));

    private static TcpTransport withFastHeartbeats() {
        return new TcpTransport(org.sessionj.transport.netty.internal.NettySettings.fromSystemProperties()
                .withHeartbeat(FAST_HEARTBEAT));
    }

    @Test
    void heartbeatsFlowBetweenIdleEndsAndAreNeverDelivered() throws IOException {
        TcpTransport t = new TcpTransport(org.sessionj.transport.netty.internal.NettySettings.fromSystemProperties()
                .withHeartbeat(TcpBlockingLivenessTest.LIVELY));
        ConnectionAcceptor acceptor = track(t.listen(0));
        Connection requester = track(t.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        // Neither program writes: the runtimes' heartbeats flow both ways and are dropped.
        TcpBlockingLivenessTest.awaitHeartbeats(accepter, 5);
        TcpBlockingLivenessTest.awaitHeartbeats(requester, 5);
        requester.write(requester.alloc().buffer().writeInt(42));
        requester.flush();
        ByteBuf frame = accepter.read(10 * SECOND);
        try {
            assertThat(frame.readInt()).isEqualTo(42);
        } finally {
            frame.release();
        }
    }

    @Test
    void aPeerThatSendsNothingNotEvenHeartbeatsFailsABlockedReadWithinTheTimeout() throws Exception {
        RawPeer peer = rawPeer(withFastHeartbeats()); // a raw socket: alive, but no runtime answers for it
        long started = System.nanoTime();
        assertThatThrownBy(() -> peer.accepted().read(20 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("no data and no heartbeat from the peer");
        assertThat(System.nanoTime() - started).as("detected within about the timeout").isLessThan(10 * SECOND);
        DataInputStream in = new DataInputStream(peer.socket().getInputStream());
        assertThat(in.readInt()).as("the raw peer was sent heartbeats: a header of length -1").isEqualTo(-1);
    }

    @Test
    void listensOnTheBindAddressWhenOneIsSet() throws IOException {
        System.setProperty("sessionj.bindAddress", "127.0.0.1");
        try (var acceptor = transport.listen(0)) {
            // /proc/net/tcp, or tcp6 for a dual-stack socket (::ffff:127.0.0.1); never the wildcard address.
            List<String> table = new ArrayList<>(java.nio.file.Files.readAllLines(Path.of("/proc/net/tcp")));
            if (java.nio.file.Files.exists(Path.of("/proc/net/tcp6"))) {
                table.addAll(java.nio.file.Files.readAllLines(Path.of("/proc/net/tcp6")));
            }
            String port = String.format(":%04X ", acceptor.port());
            List<String> local = table.stream().map(String::strip).map(line -> line.split("\\s+"))
                    .filter(f -> f.length > 3 && (f[1] + " ").endsWith(port) && f[3].equals("0A")).map(f -> f[1]).toList();
            assertThat(local).as("listening sockets on the port").isNotEmpty()
                    .allMatch(address -> address.contains("0100007F:"), "on 127.0.0.1 only");
            transport.connect("127.0.0.1", acceptor.port(), SECOND).close();
        } finally {
            System.clearProperty("sessionj.bindAddress");
        }
    }

    @Test
    void aTakenPortFailsTheListenWithABindExceptionOnBothIoPaths() throws IOException {
        // TransportManager.listen retries a port it chose only on a BindException: epoll's "Address
        // already in use" must come out as one, and so must the blocking path's.
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0)) {
            for (TcpTransport t : List.of(transport,
                    new TcpTransport(NettySettings.fromSystemProperties(), TcpTransport.IoMode.BLOCKING))) {
                assertThatThrownBy(() -> t.listen(taken.getLocalPort()))
                        .isInstanceOf(java.net.BindException.class)
                        .hasMessageContaining("cannot listen on TCP port " + taken.getLocalPort())
                        .hasMessageContaining("in use");
            }
        }
    }

    @Test
    void aBindAddressThatIsNoAddressFailsTheListenNamingTheSetting() {
        System.setProperty("sessionj.bindAddress", "no.such.host.invalid");
        try {
            assertThatThrownBy(() -> transport.listen(0)).isInstanceOf(IOException.class)
                    .isNotInstanceOf(java.net.BindException.class) // no port conflict: nothing to retry
                    .hasMessageContaining("sessionj.bindAddress").hasMessageContaining("no.such.host.invalid");
        } finally {
            System.clearProperty("sessionj.bindAddress");
        }
    }

    @Test
    void garbageFromARawSocketFailsTheReadCleanly() throws IOException {
        RawPeer peer = rawPeer(transport);
        peer.out().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        peer.out().flush();
        assertThatThrownBy(() -> peer.accepted().read(10 * SECOND))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("it sent the text 'GET …' (read as length 1195725856) where a 4-byte frame"
                        + " length belongs, the start of an HTTP request: an HTTP client (a browser, curl, a health"
                        + " check) connected, not an SJ peer");
        assertThatThrownBy(() -> peer.accepted().read(10 * SECOND)).isInstanceOf(IOException.class);
    }

    @Test
    void framesBeforeABadHeaderAreStillDelivered() throws IOException {
        RawPeer peer = rawPeer(transport);
        peer.out().writeInt(2);
        peer.out().write(new byte[] {'o', 'k'});
        peer.out().writeInt(-7);
        peer.out().flush();
        assertThat(text(peer.accepted().read(10 * SECOND))).isEqualTo("ok");
        assertThatThrownBy(() -> peer.accepted().read(10 * SECOND))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("length -7 is negative");
    }

    @Test
    void anOversizeFrameLengthIsRejected() throws IOException {
        TcpTransport small = new TcpTransport(NettySettings.fromSystemProperties().withMaxFrameBytes(1024));
        RawPeer peer = rawPeer(small);
        peer.out().writeInt(1025);
        peer.out().write(new byte[1025]);
        peer.out().flush();
        assertThatThrownBy(() -> peer.accepted().read(10 * SECOND))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("length 1025 exceeds the maximum frame size of 1024");
    }

    @Test
    void aFrameLargerThanTheMaximumIsRefusedBeforeSending() throws IOException {
        TcpTransport small = new TcpTransport(NettySettings.fromSystemProperties().withMaxFrameBytes(1024));
        ConnectionAcceptor acceptor = track(small.listen(0));
        Connection requester = track(small.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        ByteBuf big = requester.alloc().buffer(1025).writeZero(1025);
        assertThatThrownBy(() -> requester.write(big))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("frame of 1025 bytes");
        assertThat(big.refCnt()).as("the refused frame is released").isZero();
        requester.write(frame(requester, "still fine"));
        requester.flush();
        assertThat(text(accepter.read(10 * SECOND))).isEqualTo("still fine");
    }

    @Test
    void aWriterWhosePeerDoesNotReadBlocksInsteadOfBuffering() throws Exception {
        int frameBytes = 1024;
        long total = 256L << 20;
        TcpTransport tight = new TcpTransport(
                NettySettings.fromSystemProperties().withLimits(64 << 10, 16 << 10, 64 << 10, 16 << 10));
        ConnectionAcceptor acceptor = track(tight.listen(0));
        Connection writer = track(tight.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection reader = track(acceptor.accept(10 * SECOND));
        AtomicLong written = new AtomicLong();
        CompletableFuture<Throwable> writing = new CompletableFuture<>();
        Thread writerThread = Thread.ofPlatform().daemon().start(() -> {
            try {
                for (long i = 0; i < total / frameBytes; i++) {
                    ByteBuf buf = writer.alloc().buffer(frameBytes);
                    buf.writeLong(i).writeZero(frameBytes - 8);
                    writer.write(buf);
                    written.incrementAndGet();
                    if (i % 16 == 15) {
                        writer.flush();
                    }
                }
                writer.flush();
                writing.complete(null);
            } catch (Throwable e) {
                writing.complete(e);
            }
        });
        long deadline = System.nanoTime() + 30 * SECOND;
        while (!(writerThread.getState() == Thread.State.WAITING && LockSupport.getBlocker(writerThread) == writer)) {
            assertThat(writing).as("the writer must block, not buffer everything").isNotDone();
            assertThat(System.nanoTime()).as("the writer blocked in time").isLessThan(deadline);
            Thread.onSpinWait();
        }
        long writtenWhenBlocked = written.get() * frameBytes;
        // Kernel socket buffers on loopback hold a few MiB; the transport itself may hold ~128 KiB.
        assertThat(writtenWhenBlocked).isLessThan(32L << 20);
        for (long i = 0; i < total / frameBytes; i++) {
            ByteBuf buf = reader.read(10 * SECOND);
            assertThat(buf).as("frame %d", i).isNotNull();
            try {
                assertThat(buf.readLong()).isEqualTo(i);
            } finally {
                buf.release();
            }
        }
        assertThat(writing.get(10, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void aBlockedWriterIsWokenByTheClose() throws Exception {
        TcpTransport tight = new TcpTransport(
                NettySettings.fromSystemProperties().withLimits(64 << 10, 16 << 10, 64 << 10, 16 << 10));
        ConnectionAcceptor acceptor = track(tight.listen(0));
        Connection writer = track(tight.connect("localhost", acceptor.port(), 10 * SECOND));
        track(acceptor.accept(10 * SECOND));
        CompletableFuture<Throwable> writing = new CompletableFuture<>();
        Thread writerThread = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    writer.write(writer.alloc().buffer(4096).writeZero(4096));
                    writer.flush();
                }
            } catch (Throwable e) {
                writing.complete(e);
            }
        });
        long deadline = System.nanoTime() + 30 * SECOND;
        while (!(writerThread.getState() == Thread.State.WAITING && LockSupport.getBlocker(writerThread) == writer)) {
            assertThat(System.nanoTime()).as("the writer blocked in time").isLessThan(deadline);
            Thread.onSpinWait();
        }
        writer.close();
        assertThat(writing.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
    }

    @Test
    void aKilledPeerProcessFailsABlockedReadInBoundedTime() throws Exception {
        ConnectionAcceptor acceptor = track(transport.listen(0));
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process peer = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                PeerProcess.class.getName(), "localhost", Integer.toString(acceptor.port()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            Connection accepted = track(acceptor.accept(30 * SECOND));
            assertThat(accepted).as("the peer process connected").isNotNull();
            assertThat(text(accepted.read(30 * SECOND))).isEqualTo("ready");
            CompletableFuture<Throwable> reading = CompletableFuture.supplyAsync(() -> {
                try {
                    accepted.read(-1).release();
                    return null;
                } catch (IOException e) {
                    return e;
                }
            });
            peer.destroyForcibly();
            assertThat(reading.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
        } finally {
            peer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void closeReturnsOnlyOnceTheWrittenFramesLeftTheProcess() throws Exception {
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        for (int i = 0; i < 64; i++) {
            ByteBuf frame = requester.alloc().buffer(4096);
            frame.writeInt(i).writeZero(4092);
            requester.write(frame);
        }
        requester.flush();
        requester.close();
        // The socket's output is shut down after the last write when close() returns (or the socket is closed): the
        // frames are with the kernel and a process may exit now. Before, the close was only scheduled on the event
        // loop. The socket itself closes at the peer's end (a socket closed with the peer's bytes unread is reset).
        // With blocking sockets (sessionj.tcp.io=blocking) flush wrote them on this thread already.
        if (requester instanceof NettyConnection netty) {
            assertThat(!netty.channel().isOpen()
                    || ((io.netty.channel.socket.DuplexChannel) netty.channel()).isOutputShutdown()).isTrue();
        }
        for (int i = 0; i < 64; i++) {
            ByteBuf frame = accepted.read(10 * SECOND);
            assertThat(frame.readInt()).isEqualTo(i);
            frame.release();
        }
        assertThatThrownBy(() -> accepted.read(10 * SECOND)).isInstanceOf(IOException.class);
    }

    @Test
    void framesWrittenJustBeforeAProcessExitsStillArrive() throws Exception {
        ConnectionAcceptor acceptor = track(transport.listen(0));
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        int frames = 500;
        Process peer = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                PeerProcess.class.getName(), "localhost", Integer.toString(acceptor.port()), Integer.toString(frames))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            Connection accepted = track(acceptor.accept(30 * SECOND));
            assertThat(accepted).as("the peer process connected").isNotNull();
            assertThat(text(accepted.read(30 * SECOND))).isEqualTo("ready");
            for (int i = 0; i < frames; i++) {
                ByteBuf frame = accepted.read(30 * SECOND);
                assertThat(frame).as("frame %d of %d", i, frames).isNotNull();
                assertThat(frame.readInt()).isEqualTo(i);
                frame.release();
            }
            assertThatThrownBy(() -> accepted.read(30 * SECOND)).isInstanceOf(IOException.class);
            assertThat(peer.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(peer.exitValue()).isZero();
        } finally {
            peer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClosedAcceptorsPortIsFreeAtOnceOnEveryEventLoopKind() throws IOException {
        // NIO releases a closed server socket only at its selector's next select. Ten rounds per kind:
        // each round reads the kernel's socket tables, which on a machine with thousands of other
        // sockets (load tests next to this build) costs tens of milliseconds.
        for (TcpTransport t : List.of(transport, new TcpTransport(NettySettings.fromSystemProperties().withPreferNative(false)))) {
            for (int i = 0; i < 10; i++) {
                ConnectionAcceptor acceptor = t.listen(0);
                int port = acceptor.port();
                acceptor.close();
                assertThat(t.canReach("localhost", port)).as("%s port %d after close", t.eventLoopKind(), port).isFalse();
                assertThatThrownBy(() -> t.connect("localhost", port, SECOND).close()).isInstanceOf(IOException.class);
            }
        }
    }

    @Test
    void manyConcurrentConnectionsOnVirtualThreadsKeepTheirOwnStreams() throws Exception {
        int clients = 100;
        int rounds = 50;
        ConnectionAcceptor acceptor = track(transport.listen(0));
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> servers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Future<Connection> connecting = threads.submit(
                        () -> transport.connect("localhost", acceptor.port(), 10 * SECOND));
                Connection server = track(acceptor.accept(10 * SECOND));
                Connection client = track(connecting.get(10, TimeUnit.SECONDS));
                int id = i;
                // Server: echo each int plus the client's id; client: check every answer.
                threads.submit(() -> {
                    for (int r = 0; r < rounds; r++) {
                        ByteBuf in = server.read(10 * SECOND);
                        int value = in.readInt();
                        in.release();
                        server.write(server.alloc().buffer(4).writeInt(value + id));
                        server.flush();
                    }
                    return null;
                });
                servers.add(threads.submit(() -> {
                    int ok = 0;
                    for (int r = 0; r < rounds; r++) {
                        client.write(client.alloc().buffer(4).writeInt(r * 1000));
                        client.flush();
                        ByteBuf in = client.read(10 * SECOND);
                        if (in.readInt() == r * 1000 + id) {
                            ok++;
                        }
                        in.release();
                    }
                    return ok;
                }));
            }
            for (Future<Integer> result : servers) {
                assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(rounds);
            }
        }
    }

    @Test
    void anInterruptedReaderGetsAnInterruptedIOExceptionAndKeepsItsFlag() throws Exception {
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection client = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        track(acceptor.accept(10 * SECOND));
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try {
                client.read(-1).release();
                outcome.complete("read returned");
            } catch (InterruptedIOException e) {
                outcome.complete("interrupted, flag " + Thread.currentThread().isInterrupted());
            } catch (IOException e) {
                outcome.complete(e.toString());
            }
        });
        long deadline = System.nanoTime() + 10 * SECOND;
        // Event loops: the reader parks. Blocking sockets (sessionj.tcp.io=blocking): it sits in the
        // socket read (an interrupt then also closes the connection, as NIO's channels do).
        while (reader.getState() != Thread.State.WAITING && !inBlockingRead(reader)) {
            assertThat(System.nanoTime()).as("the reader parked in time").isLessThan(deadline);
            Thread.onSpinWait();
        }
        reader.interrupt();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo("interrupted, flag true");
    }

    private static boolean inBlockingRead(Thread reader) {
        return java.util.Arrays.stream(reader.getStackTrace())
                .anyMatch(f -> f.getClassName().endsWith("BlockingInput") && f.getMethodName().equals("fill"));
    }

    @Test
    void afterThePeerClosedAWriteFailsButFlushingNothingDoesNot() throws IOException {
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        requester.write(frame(requester, "last words"));
        requester.flush();
        assertThat(text(accepter.read(10 * SECOND))).isEqualTo("last words");
        accepter.close();
        assertThatThrownBy(() -> requester.read(10 * SECOND)).isInstanceOf(IOException.class);
        // Everything written went out before the peer closed: nothing is lost, nothing to report.
        requester.flush();
        ByteBuf late = frame(requester, "too late");
        assertThatThrownBy(() -> requester.write(late))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("connection closed by the peer");
        assertThat(late.refCnt()).isZero();
    }

    @Test
    void connectingToAnUnknownHostFailsClearly() {
        assertThatThrownBy(() -> transport.connect("no-such-host.invalid", 4711, SECOND))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("no-such-host.invalid:4711")
                .hasMessageContaining("unknown host");
    }

    @Test
    void listeningOnABadPortFails() {
        assertThatThrownBy(() -> transport.listen(70000))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("70000");
    }
}
