package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.support.Heartbeat;

/**
 * A blocking-tcp connection whose session runs on a platform thread keeps its socket in blocking mode
 * although virtual threads wrote to it: the accepting side's handshake (the runtime runs it on a virtual
 * thread) and the keeper's heartbeats. The JDK switches a socket to non-blocking mode for good at a
 * virtual thread's first write; a platform thread's read that finds nothing is then {@code read}
 * ({@code EAGAIN}), {@code poll}, {@code read} instead of one blocking {@code read}, ~1.2 µs of CPU more
 * per round trip. The mode is read from {@code /proc/self/fdinfo} (Linux; skipped elsewhere).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BlockingSocketModeTest {
    private static final int O_NONBLOCK = 04000;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private SocketChannel accepted;

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    /** This side's end as a blocking acceptor makes it, with {@code settings}; {@code peer[0]} the raw peer. */
    private BlockingConnection acceptedFrom(Socket[] peer, NettySettings settings) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fdinfo")), "needs Linux's /proc");
        ServerSocketChannel server = ServerSocketChannel.open();
        opened.add(server);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        peer[0] = new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort());
        opened.add(peer[0]);
        accepted = server.accept();
        BlockingConnection connection = new BlockingConnection(accepted, "tcp", settings);
        opened.add(0, connection::close);
        return connection;
    }

    @Test
    void aFrameFlushedOnAVirtualThreadLeavesTheSocketBlocking() throws Exception {
        Socket[] peer = new Socket[1];
        BlockingConnection connection = acceptedFrom(peer, NettySettings.fromSystemProperties().withHeartbeat(Heartbeat.OFF));
        assertThat(nonBlocking(accepted)).as("freshly accepted").isFalse();

        Thread handshake = Thread.ofVirtual().start(() -> {
            try {
                connection.write(connection.alloc().buffer(4).writeInt(42)); // a handshake's answer
                connection.flush();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        handshake.join();
        DataInputStream fromSide = new DataInputStream(peer[0].getInputStream());
        assertThat(fromSide.readInt()).as("length").isEqualTo(4);
        assertThat(fromSide.readInt()).isEqualTo(42);

        assertThat(nonBlocking(accepted)).as("after a virtual thread's flush").isFalse();
        peer[0].getOutputStream().write(new byte[] {0, 0, 0, 1, 7});
        ByteBuf frame = connection.read(-1); // the session's platform thread
        try {
            assertThat(frame.readByte()).isEqualTo((byte) 7);
        } finally {
            frame.release();
        }
        assertThat(nonBlocking(accepted)).as("after the platform thread's read").isFalse();
    }

    @Test
    void heartbeatsLeaveTheSocketBlocking() throws Exception {
        Socket[] peer = new Socket[1];
        Heartbeat quick = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(20), TimeUnit.SECONDS.toNanos(20));
        BlockingConnection connection = acceptedFrom(peer, NettySettings.fromSystemProperties().withHeartbeat(quick)).start();
        DataInputStream fromSide = new DataInputStream(peer[0].getInputStream());
        peer[0].setSoTimeout((int) Duration.ofSeconds(10).toMillis());
        for (int i = 0; i < 3; i++) {
            assertThat(fromSide.readInt()).as("a heartbeat").isEqualTo(FrameDecoder.HEARTBEAT);
        }
        assertThat(nonBlocking(accepted)).as("after three heartbeats").isFalse();
        assertThat(connection.socketSwitchedForGood()).isFalse();
    }

    @Test
    void aVirtualThreadThatReadsWithoutATimeoutWritesOnItsOwnThread() throws Exception {
        Socket[] peer = new Socket[1];
        BlockingConnection connection = acceptedFrom(peer, NettySettings.fromSystemProperties().withHeartbeat(Heartbeat.OFF));
        peer[0].getOutputStream().write(new byte[] {0, 0, 0, 1, 7});
        Thread session = Thread.ofVirtual().start(() -> {
            try {
                connection.read(-1).release(); // the JDK switches the socket here
                connection.write(connection.alloc().buffer(4).writeInt(1));
                connection.flush();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        session.join();
        assertThat(connection.socketSwitchedForGood()).as("no platform writer for a socket switched already").isTrue();
        assertThat(nonBlocking(accepted)).as("the JDK's switch for a virtual thread").isTrue();
        assertThat(new DataInputStream(peer[0].getInputStream()).readLong()).isEqualTo((4L << 32) | 1);
    }

    /** Whether {@code channel}'s socket is in non-blocking mode, from the kernel's flags of its descriptor. */
    private static boolean nonBlocking(SocketChannel channel) throws IOException {
        int local = ((InetSocketAddress) channel.getLocalAddress()).getPort();
        int remote = ((InetSocketAddress) channel.getRemoteAddress()).getPort();
        String inode = null;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            for (String line : Files.readAllLines(path)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].contains(":") && port(f[1]) == local && port(f[2]) == remote) {
                    inode = f[9];
                }
            }
        }
        assertThat(inode).as("the socket in the kernel's tables").isNotNull();
        String link = "socket:[" + inode + "]";
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException gone) {
                    continue; // closed meanwhile
                }
                if (target.equals(link)) {
                    for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", fd.getFileName().toString()))) {
                        if (line.startsWith("flags:")) {
                            return (Integer.parseInt(line.substring("flags:".length()).trim(), 8) & O_NONBLOCK) != 0;
                        }
                    }
                }
            }
        }
        throw new AssertionError("no descriptor of this process is " + link);
    }

    private static int port(String hexAddress) {
        return Integer.parseInt(hexAddress.substring(hexAddress.lastIndexOf(':') + 1), 16);
    }
}
