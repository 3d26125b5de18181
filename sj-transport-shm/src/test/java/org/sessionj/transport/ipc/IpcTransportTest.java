package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;

/** What the conformance test does not cover: big frames, wake-ups, damage, stale sockets, a dying peer process. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IpcTransportTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @TempDir
    Path sockets;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void stopChildren() throws Exception {
        for (Process child : children) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Fresh memories (no pool), so that the tests that damage a ring find its records where a fresh one has them. */
    private IpcSettings settings() {
        return IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withPoolSize(0);
    }

    /** [0] the requester's end, [1] the accepter's. */
    private Connection[] pair(IpcSettings settings) throws IOException {
        IpcTransport transport = new IpcTransport(settings);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        return new Connection[] {requester, accepter};
    }

    @Test
    void aSixteenMebibyteFrameIsFragmentedAndReassembled() throws Exception {
        Connection[] ends = pair(settings());
        int ints = 4 << 20;
        ByteBuf big = ends[0].alloc().buffer(ints * 4);
        for (int i = 0; i < ints; i++) {
            big.writeInt(i * 31);
        }
        ByteBuf small = ends[0].alloc().buffer().writeInt(-1);
        // Written from another thread: past sessionj.ipc.backlogBytes a writer waits for the reader, as on TCP.
        java.util.concurrent.CompletableFuture<Void> writer = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                ends[0].write(big); // fills the 1 MiB ring many times over: the rest goes out from the backlog
                ends[0].write(small);
                ends[0].flush();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        ByteBuf received = ends[1].read(30 * SECOND);
        try {
            assertThat(received.readableBytes()).isEqualTo(ints * 4);
            for (int i = 0; i < ints; i++) {
                if (received.getInt(i * 4) != i * 31) {
                    throw new AssertionError("int " + i + " is " + received.getInt(i * 4));
                }
            }
        } finally {
            received.release();
        }
        ByteBuf after = ends[1].read(10 * SECOND);
        assertThat(after.readInt()).isEqualTo(-1);
        after.release();
        writer.get(10, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Test
    void aWriterWhoseReaderStopsIsHeldAtTheBacklogBoundAndTimesOut() throws Exception {
        Connection[] ends = pair(settings().withBacklogBytes(256 << 10));
        ends[0].sendTimeout(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(300));
        long sent = 0;
        Throwable failure = null;
        try {
            while (sent < 64L << 20) {
                ends[0].write(ends[0].alloc().buffer(16 << 10).writeZero(16 << 10));
                sent += 16 << 10;
            }
        } catch (java.io.IOException e) {
            failure = e;
        }
        assertThat(failure).isInstanceOf(org.sessionj.runtime.spi.WriteTimeoutException.class)
                .hasMessageContaining("sessionj.ipc.backlogBytes");
        assertThat(sent).as("the ring (1 MiB) and the backlog bound (256 KiB), and a frame more")
                .isLessThanOrEqualTo((1 << 20) + (256 << 10) + (32 << 10));
    }

    @Test
    void sendsDoNotBlockOnAReaderThatIsBehindAndCloseDeliversEverythingFirst() throws Exception {
        Connection[] ends = pair(settings().withRingBytes(8192));
        int frames = 1000; // about 64 rings' worth, nobody reading yet
        for (int i = 0; i < frames; i++) {
            ends[0].write(ends[0].alloc().buffer(512).writeInt(i).writeZero(508));
        }
        ends[0].flush();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(ends[0]::close);
        for (int i = 0; i < frames; i++) {
            ByteBuf frame = ends[1].read(10 * SECOND);
            assertThat(frame.readInt()).isEqualTo(i);
            frame.release();
        }
        assertThatThrownBy(() -> ends[1].read(10 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("closed by the peer");
        closing.get(10, TimeUnit.SECONDS);
    }

    @Test
    void tenThousandRoundTripsWithReadersThatAlwaysSleepLoseNoWakeUp() throws Exception {
        Connection[] ends = pair(settings().withSpins(0).withYields(0).withSpinMicros(0));
        int rounds = 10_000;
        Thread echo = Thread.ofVirtual().start(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    ByteBuf ping = ends[1].read(30 * SECOND);
                    ends[1].write(ping); // straight back
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        for (int i = 0; i < rounds; i++) {
            ends[0].write(ends[0].alloc().buffer(4).writeInt(i));
            ByteBuf pong = ends[0].read(30 * SECOND);
            assertThat(pong).as("pong %d within the timeout", i).isNotNull();
            assertThat(pong.readInt()).isEqualTo(i);
            pong.release();
        }
        echo.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(echo.isAlive()).isFalse();
    }

    @Test
    void garbageInTheRingFailsTheReaderCleanly() throws Exception {
        Connection[] ends = pair(settings());
        IpcConnection accepter = (IpcConnection) ends[1];
        // The requester → accepter ring (0) as the producer would see it: a record that claims to run past the end.
        SharedRing ring = accepter.memory().ring(0);
        ByteBuffer raw = ring.bytes();
        raw.putInt(0, 0x7FFF_FFF0).putInt(4, Records.FRAME);
        assertThatThrownBy(() -> ends[1].read(10 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt ipc ring from the peer");
        assertThatThrownBy(() -> ends[1].read(10 * SECOND)).as("and stays failed").isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt ipc ring");
    }

    /**
     * Another process of the same user truncates the memory file under a live connection (`truncate -s 0`):
     * the pages both ends mapped are gone and the next access raises SIGBUS, which the JVM reports as an
     * InternalError. Both ends fail with an IOException instead, closing throws nothing, and the JVM's one
     * doorbell thread goes on serving other connections.
     */
    @Test
    void aMemoryFileTruncatedUnderALiveConnectionFailsBothEndsWithIOExceptions() throws Exception {
        Connection[] ends = pair(settings().withPoolSize(4)); // a pooled memory keeps its file at its path
        Path file = ((IpcConnection) ends[0]).memory().file();
        assertThat(file).isNotNull();
        ends[0].write(ends[0].alloc().buffer(4).writeInt(1));
        ByteBuf first = ends[1].read(10 * SECOND);
        assertThat(first.readInt()).isEqualTo(1);
        first.release();
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(0);
        }
        assertThatThrownBy(() -> ends[1].read(10 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("file was truncated or removed by another process");
        assertThatThrownBy(() -> ends[0].write(ends[0].alloc().buffer(4).writeInt(2))).isInstanceOf(IOException.class)
                .hasMessageContaining("file was truncated or removed by another process");
        assertThatThrownBy(() -> ends[0].read(10 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("file was truncated or removed by another process");
        ends[0].close();
        ends[1].close();

        Connection[] fresh = pair(settings().withPoolSize(4));
        fresh[0].write(fresh[0].alloc().buffer(4).writeInt(3));
        ByteBuf next = fresh[1].read(10 * SECOND);
        assertThat(next).as("a fresh connection is served").isNotNull();
        assertThat(next.readInt()).isEqualTo(3);
        next.release();
    }

    @Test
    void anUnknownRecordTypeFailsTheReaderCleanly() throws Exception {
        Connection[] ends = pair(settings());
        SharedRing ring = ((IpcConnection) ends[1]).memory().ring(0);
        int index = ring.claim(99, 4);
        ring.bytes().putInt(index, 7);
        ring.commit();
        assertThatThrownBy(() -> ends[1].read(10 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("a record of unknown type 99");
    }

    @Test
    void aFileThatIsNotSharedMemoryOfThisTransportIsRefusedByName(@TempDir Path files) throws Exception {
        Path notMemory = Files.write(files.resolve("junk"), new byte[8192]);
        assertThatThrownBy(() -> IpcMemory.map(notMemory, 1 << 30)).isInstanceOf(IOException.class)
                .hasMessageContaining("has magic 0x00000000, expected 0x534A4950");
        Path tooShort = Files.write(files.resolve("short"), new byte[10]);
        assertThatThrownBy(() -> IpcMemory.map(tooShort, 1 << 30)).isInstanceOf(IOException.class)
                .hasMessageContaining("less than the 256-byte header");
        Path created = IpcMemory.create(files, 4096).file();
        ByteBuffer badRing = ByteBuffer.allocate(4).putInt(12345).flip();
        try (var channel = java.nio.channels.FileChannel.open(created, java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(badRing, IpcMemory.RING_BYTES_OFFSET);
        }
        assertThatThrownBy(() -> IpcMemory.map(created, 1 << 30)).isInstanceOf(IOException.class)
                .hasMessageContaining("rings of 12345 bytes");
    }

    /**
     * The path in an OPEN is the requester's word: the accepter never creates a file there (it did: an
     * empty file at any path its user may write), never follows a link, and names what is wrong.
     */
    @Test
    void aPathThatIsNoMemoryFileIsRefusedWithoutCreatingOrFollowingAnything(@TempDir Path files) throws Exception {
        Path missing = files.resolve("should-not-exist");
        assertThatThrownBy(() -> IpcMemory.map(missing, 1 << 30)).isInstanceOf(IOException.class)
                .hasMessageContaining("does not exist");
        assertThat(missing).as("not created").doesNotExist();
        assertThatThrownBy(() -> IpcMemory.map(Path.of("relative.ring"), 1 << 30)).isInstanceOf(IOException.class)
                .hasMessageContaining("is not an absolute path");
        assertThat(Path.of("relative.ring")).doesNotExist();
        assertThatThrownBy(() -> IpcMemory.map(files, 1 << 30)).isInstanceOf(IOException.class)
                .hasMessageContaining("is not a regular file");
        Path real = IpcMemory.create(files, 4096).file();
        Path link = Files.createSymbolicLink(files.resolve("link.ring"), real);
        assertThatThrownBy(() -> IpcMemory.map(link, 1 << 30)).isInstanceOf(IOException.class)
                .hasMessageContaining("is not a regular file");
        Path huge = files.resolve("sparse");
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            raf.setLength(100L << 30); // sparse: no space taken
        }
        assertThatThrownBy(() -> IpcMemory.map(huge, 1 << 30)).isInstanceOf(IOException.class)
                .hasMessageContaining("has 107374182400 bytes, more than the");
    }

    @Test
    void anAcceptorRefusesABadRequestAndStaysUsable(@TempDir Path files) throws Exception {
        IpcTransport transport = new IpcTransport(settings());
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Path junk = Files.write(files.resolve("junk"), new byte[4096]);
        try (SocketChannel raw = SocketChannel.open(UnixDomainSocketAddress.of(IpcTransport.socketFile(settings(),
                acceptor.port())))) {
            Handshake.sendOpen(raw, junk);
            assertThatThrownBy(() -> Handshake.readAnswer(raw, System.nanoTime() + 10 * SECOND))
                    .isInstanceOf(IOException.class).hasMessageContaining("refused").hasMessageContaining("magic");
        }
        try (SocketChannel raw = SocketChannel.open(UnixDomainSocketAddress.of(IpcTransport.socketFile(settings(),
                acceptor.port())))) {
            raw.write(ByteBuffer.wrap("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII)));
            int read;
            try {
                read = raw.read(ByteBuffer.allocate(1));
            } catch (IOException reset) { // closed with our unread bytes still queued: a reset
                read = -1;
            }
            assertThat(read).as("closed without an answer").isEqualTo(-1);
        }
        Connection good = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        good.write(good.alloc().buffer().writeInt(42));
        ByteBuf frame = accepted.read(10 * SECOND);
        assertThat(frame.readInt()).isEqualTo(42);
        frame.release();
    }

    @Test
    void aStaleSocketFileOfADeadProcessDoesNotBlockThePort() throws Exception {
        IpcTransport transport = new IpcTransport(settings());
        ConnectionAcceptor first = transport.listen(0);
        int port = first.port();
        first.close();
        // What a killed process leaves: its socket file, bound by nobody, and no lock held.
        Path stale = IpcTransport.socketFile(settings(), port);
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(stale));
        }
        assertThat(stale).exists();
        ConnectionAcceptor again = track(transport.listen(port));
        assertThat(again.port()).isEqualTo(port);
        track(transport.connect("localhost", port, 10 * SECOND));
        assertThat(again.accept(10 * SECOND)).isNotNull();
        assertThatThrownBy(() -> transport.listen(port)).isInstanceOf(IOException.class)
                .hasMessageContaining("ipc port " + port + " is already in use");
    }

    @Test
    void aClosedAcceptorLeavesNoFilesAndItsPortCanBeTakenAgain() throws Exception {
        IpcTransport transport = new IpcTransport(settings());
        ConnectionAcceptor first = transport.listen(0);
        int port = first.port();
        Path lock = sockets.resolve(port + ".lock");
        assertThat(lock).exists();
        assertThat(IpcTransport.socketFile(settings(), port)).exists();
        first.close();
        assertThat(lock).doesNotExist();
        assertThat(IpcTransport.socketFile(settings(), port)).doesNotExist();
        ConnectionAcceptor again = track(transport.listen(port));
        track(transport.connect("localhost", port, 10 * SECOND));
        assertThat(again.accept(10 * SECOND)).isNotNull();
    }

    @Test
    void aSocketDirectoryOpenToOthersIsRefused(@TempDir Path parent) throws Exception {
        Path open = Files.createDirectory(parent.resolve("open"),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx---rwx")));
        java.nio.file.Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwx---rwx"));
        IpcTransport transport = new IpcTransport(settings().withSocketDirectory(open));
        assertThatThrownBy(() -> transport.listen(0)).isInstanceOf(IOException.class)
                .hasMessageContaining("must belong to").hasMessageContaining("closed to others")
                .hasMessageContaining("rwx---rwx");
    }

    /**
     * hostile22 H22-2: a symbolic link is as good as its owner. One this user made to a private directory serves; one
     * another user made (in a shared /tmp) is refused, though it leads to a private directory of this user, since its
     * owner could point it elsewhere once the acceptors are bound behind it. The second part needs root to give the
     * link another owner (lchown), so it runs only as root.
     */
    @Test
    void aSocketDirectoryThatIsAnotherUsersSymbolicLinkIsRefused(@TempDir Path parent) throws Exception {
        Path target = Files.createDirectory(parent.resolve("private"),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        Path own = Files.createSymbolicLink(parent.resolve("own-link"), target);
        IpcTransport transport = new IpcTransport(settings().withSocketDirectory(own));
        track(transport.listen(0));
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "giving a link another owner needs root");
        java.nio.file.attribute.UserPrincipal nobody;
        try {
            nobody = parent.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        } catch (java.nio.file.attribute.UserPrincipalNotFoundException e) {
            org.junit.jupiter.api.Assumptions.abort("no user nobody to own the link");
            return;
        }
        Path foreign = Files.createSymbolicLink(parent.resolve("foreign-link"), target);
        Files.getFileAttributeView(foreign, java.nio.file.attribute.FileOwnerAttributeView.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS).setOwner(nobody);
        assertThat(Files.getOwner(target).getName()).isEqualTo("root");
        assertThat(Files.getOwner(foreign, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName()).isEqualTo("nobody");
        IpcTransport squatted = new IpcTransport(settings().withSocketDirectory(foreign));
        assertThatThrownBy(() -> squatted.listen(0)).isInstanceOf(IOException.class)
                .hasMessageContaining("is a symbolic link made by nobody, not by root");
    }

    @Test
    void onlyThisHostIsReachable() {
        IpcTransport transport = new IpcTransport(settings());
        assertThat(transport.sameHostOnly()).isTrue();
        assertThat(transport.servesSetup()).isFalse();
        assertThatThrownBy(() -> transport.connect("192.0.2.1", 50000, SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("reaches only this host");
    }

    /** Whether another process finds the lock of {@code port} held. */
    private boolean heldForOtherProcesses(int port) throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process child = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), LockProbeProcess.class.getName(),
                sockets.resolve(port + ".lock").toString()).redirectErrorStream(true).start();
        children.add(child);
        String answer = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(answer).isIn("held", "free");
        return answer.equals("held");
    }

    @Test
    void anAcceptorsPortStaysLockedForOtherProcessesAfterBindingAndAfterThisJvmLooksAtItAgain() throws Exception {
        IpcTransport transport = new IpcTransport(settings());
        ConnectionAcceptor acceptor = track(transport.listen(0));
        int port = acceptor.port();
        assertThat(heldForOtherProcesses(port)).as("locked once bound").isTrue();
        // This JVM looking at the port again (a sweep, a bind that finds it taken) must not drop its lock:
        // closing any channel of a process to a file drops all the process's locks on it.
        assertThat(StaleFiles.sweep(sockets)).isZero();
        assertThatThrownBy(() -> transport.listen(port)).isInstanceOf(IOException.class).hasMessageContaining("in use");
        assertThat(heldForOtherProcesses(port)).as("still locked").isTrue();
        assertThat(sockets.resolve(port + ".sock")).exists();
        acceptor.close();
        assertThat(sockets.resolve(port + ".lock")).as("removed by its owner").doesNotExist();
    }

    private Process startPeer(int port, String... more) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dsessionj.ipc.dir=" + sockets, "-cp", System.getProperty("java.class.path"),
                IpcPeerProcess.class.getName(), Integer.toString(port)));
        command.addAll(List.of(more));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(
                ProcessBuilder.Redirect.DISCARD).start();
        children.add(child);
        return child;
    }

    @Test
    void aKilledPeerProcessFailsABlockedReadWithinSeconds() throws Exception {
        ConnectionAcceptor acceptor = track(new IpcTransport(settings()).listen(0));
        Process child = startPeer(acceptor.port());
        Connection connection = track(acceptor.accept(60 * SECOND));
        assertThat(connection).as("the child connected").isNotNull();
        assertThat(text(connection.read(60 * SECOND))).isEqualTo("ready");
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                ByteBuf unexpected = connection.read(-1);
                unexpected.release();
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        child.destroyForcibly();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class)
                .hasMessageContaining("the peer process exited");
    }

    @Test
    void framesAndTheCloseOfAPeerThatHaltsRightAfterClosingAllArrive() throws Exception {
        ConnectionAcceptor acceptor = track(new IpcTransport(settings()).listen(0));
        int frames = 200; // 6.4 MB: several rings' worth, so the close has to wait for this reader
        Process child = startPeer(acceptor.port(), Integer.toString(frames));
        Connection connection = track(acceptor.accept(60 * SECOND));
        assertThat(text(connection.read(60 * SECOND))).isEqualTo("ready");
        for (int i = 0; i < frames; i++) {
            ByteBuf frame = connection.read(30 * SECOND);
            assertThat(frame).as("frame %d", i).isNotNull();
            assertThat(frame.readableBytes()).isEqualTo(IpcPeerProcess.FRAME_BYTES);
            assertThat(frame.readInt()).isEqualTo(i);
            frame.release();
        }
        assertThatThrownBy(() -> connection.read(30 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("closed by the peer");
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();
    }
}
