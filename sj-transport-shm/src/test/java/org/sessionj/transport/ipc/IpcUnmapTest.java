package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;

/**
 * A closed connection's shared memory is unmapped at once (JDK 22+), not at the garbage collector's
 * leisure: every test keeps the closed connections reachable, so no GC could have unmapped them, and
 * counts this process's mappings of the test's own memory directory in {@code /proc/self/maps}. And the
 * unmap never races an access of the ring: closes hammered against reads, writes and listeners.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IpcUnmapTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** Rounds of the close hammer: {@code -Dipc.hammerRounds} (default 60; thousands for a long run). */
    private static final int HAMMER_ROUNDS = Integer.getInteger("ipc.hammerRounds", 60);

    @TempDir
    Path sockets;
    @TempDir
    Path memories;

    private final List<Process> children = new ArrayList<>();
    /** Closed connections, held so that only an explicit unmap can have freed their memory. */
    private final List<Connection> kept = new ArrayList<>();

    @BeforeEach
    void deterministicUnmapOnly() {
        assumeTrue(Mapping.deterministic(), "JDK 21 (or sessionj.ipc.gcUnmap): the garbage collector unmaps");
    }

    @AfterEach
    void stopChildren() throws Exception {
        for (Process child : children) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private IpcSettings settings(int pool) {
        return IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withMemoryDirectory(memories)
                .withPoolSize(pool);
    }

    /**
     * This process's mappings of files in the test's memory directory (deleted ones too), once the unmaps
     * asked for so far are done (the unmapping thread closes them right after a close, in order).
     */
    private long mappings() throws IOException, InterruptedException {
        Mapping.awaitUnmaps();
        String directory = memories.toAbsolutePath().toString() + "/";
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(line -> line.contains(directory)).count();
        }
    }

    private long files() throws IOException {
        try (Stream<Path> list = Files.list(memories)) {
            return list.count();
        }
    }

    private static void roundTrip(Connection from, Connection to) throws IOException {
        from.write(from.alloc().buffer(4).writeInt(42));
        ByteBuf received = to.read(10 * SECOND);
        assertThat(received).isNotNull();
        assertThat(received.readInt()).isEqualTo(42);
        received.release();
    }

    @Test
    void closedConnectionsUnmapTheirMemoryAtOnceWithoutAGarbageCollection() throws Exception {
        IpcTransport transport = new IpcTransport(settings(0));
        ConnectionAcceptor acceptor = track(transport.listen(0));
        long before = mappings();
        for (int i = 0; i < 40; i++) {
            Connection requester = transport.connect("localhost", acceptor.port(), 10 * SECOND);
            Connection accepter = acceptor.accept(10 * SECOND);
            kept.add(requester);
            kept.add(accepter);
            roundTrip(requester, accepter);
            roundTrip(accepter, requester);
            assertThat(mappings()).as("both ends map it while it is open").isEqualTo(before + 2);
            // Every order of closing: the requester first, the accepter first, and one end closed while
            // the other is inside a read that the close ends.
            switch (i % 3) {
                case 0 -> {
                    requester.close();
                    assertThatThrownBy(() -> accepter.read(10 * SECOND)).isInstanceOf(IOException.class);
                    accepter.close();
                }
                case 1 -> {
                    accepter.close();
                    requester.close();
                }
                default -> {
                    Thread reader = Thread.ofPlatform().start(() -> {
                        try {
                            accepter.read(-1);
                        } catch (IOException expected) {
                            // closed under it
                        }
                    });
                    Thread.sleep(1); // not for correctness: the read may or may not be asleep yet, both must hold
                    accepter.close();
                    reader.join(10_000);
                    assertThat(reader.isAlive()).isFalse();
                    requester.close();
                }
            }
            assertThat(mappings()).as("after session %d, with every closed connection still reachable", i)
                    .isEqualTo(before);
        }
        assertThat(files()).as("a pool of none unlinks every file").isZero();
    }

    @Test
    void aRequestersPoolKeepsAtMostItsSizeMappedAndTheAcceptersEndsAreUnmapped() throws Exception {
        IpcTransport transport = new IpcTransport(settings(2));
        ConnectionAcceptor acceptor = track(transport.listen(0));
        long before = mappings();
        List<Connection[]> open = new ArrayList<>();
        for (int i = 0; i < 6; i++) { // six at once: four are fresh memories the pool cannot keep
            Connection requester = transport.connect("localhost", acceptor.port(), 10 * SECOND);
            Connection accepter = acceptor.accept(10 * SECOND);
            roundTrip(requester, accepter);
            open.add(new Connection[] {requester, accepter});
            kept.add(requester);
            kept.add(accepter);
        }
        assertThat(mappings()).isEqualTo(before + 12);
        for (Connection[] ends : open) {
            ends[0].close();
            ends[1].close();
        }
        assertThat(mappings()).as("the pool's two memories, mapped by the requester only").isEqualTo(before + 2);
        assertThat(files()).isEqualTo(2);
    }

    @Test
    void aKilledRequesterProcessLeavesNeitherAMappingNorItsPooledFileBehind() throws Exception {
        ConnectionAcceptor acceptor = track(new IpcTransport(settings(0)).listen(0));
        long before = mappings();
        Process child = startPeer(acceptor.port()); // its pool (the default, 4) keeps its file at its path
        Connection connection = acceptor.accept(60 * SECOND);
        assertThat(connection).as("the child connected").isNotNull();
        kept.add(connection);
        ByteBuf ready = connection.read(60 * SECOND);
        assertThat(ready.toString(StandardCharsets.UTF_8)).isEqualTo("ready");
        ready.release();
        assertThat(mappings()).isEqualTo(before + 1);
        assertThat(files()).as("the requester's pooled file").isEqualTo(1);
        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> connection.read(30 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("the peer process exited");
        connection.close();
        assertThat(mappings()).as("unmapped at the close").isEqualTo(before);
        assertThat(files()).as("the dead creator's file removed: its RAM is free").isZero();
    }

    /**
     * Closes race every other thread that touches the memory: a writer appending, a reader reading,
     * a thread setting and clearing a readiness listener (which arms the sleeping flag) and asking
     * whether a read would return, and the doorbell thread ringing. A use of unmapped memory would crash
     * this JVM (SIGSEGV) or throw a raw error; every failure seen here must be an IOException.
     */
    @Test
    void closesHammeredAgainstReadsWritesAndListenersNeverTouchUnmappedMemory() throws Exception {
        IpcTransport transport = new IpcTransport(settings(0));
        ConnectionAcceptor acceptor = track(transport.listen(0));
        long before = mappings();
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        for (int round = 0; round < HAMMER_ROUNDS; round++) {
            Connection requester = transport.connect("localhost", acceptor.port(), 10 * SECOND);
            Connection accepter = acceptor.accept(10 * SECOND);
            kept.add(requester);
            kept.add(accepter);
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch started = new CountDownLatch(3);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            int frameBytes = random.nextBoolean() ? 64 : 200_000; // small records, and frames in fragments
            List<Thread> threads = List.of(
                    Thread.ofPlatform().start(() -> guarded(unexpected, () -> {
                        started.countDown();
                        while (!stop.get()) {
                            requester.write(requester.alloc().buffer(frameBytes).writeZero(frameBytes));
                        }
                    })),
                    Thread.ofPlatform().start(() -> guarded(unexpected, () -> {
                        started.countDown();
                        while (!stop.get()) {
                            ByteBuf frame = accepter.read(SECOND);
                            if (frame != null) {
                                frame.release();
                            }
                        }
                    })),
                    Thread.ofPlatform().start(() -> guarded(unexpected, () -> {
                        started.countDown();
                        Runnable listener = () -> { };
                        while (!stop.get()) {
                            accepter.readinessListener(listener);
                            accepter.isReadable();
                            requester.readinessListener(listener);
                            requester.isReadable();
                            accepter.readinessListener(null);
                            requester.readinessListener(null);
                        }
                    })));
            started.await();
            for (int spin = random.nextInt(20_000); spin > 0; spin--) {
                Thread.onSpinWait(); // a random moment in the middle of it all
            }
            switch (round % 3) {
                case 0 -> accepter.close();
                case 1 -> requester.close();
                default -> {
                    Thread other = Thread.ofPlatform().start(requester::close);
                    accepter.close();
                    other.join();
                }
            }
            requester.close();
            accepter.close();
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(30_000);
                assertThat(thread.isAlive()).as("round %d: a thread is stuck", round).isFalse();
            }
            assertThat(unexpected).as("round %d", round).isEmpty();
        }
        assertThat(mappings()).isEqualTo(before);
    }

    private interface Action {
        void run() throws IOException;
    }

    /** Runs {@code action} until it fails; an IOException is a clean failure, anything else is recorded. */
    private static void guarded(ConcurrentLinkedQueue<Throwable> unexpected, Action action) {
        try {
            action.run();
        } catch (IOException expected) {
            // the close, seen cleanly
        } catch (Throwable e) {
            unexpected.add(e);
        }
    }

    private Process startPeer(int port) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dsessionj.ipc.dir=" + sockets, "-Dsessionj.ipc.memoryDir=" + memories,
                "-cp", System.getProperty("java.class.path"), IpcPeerProcess.class.getName(), Integer.toString(port)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(
                ProcessBuilder.Redirect.DISCARD).start();
        children.add(child);
        return child;
    }
}
