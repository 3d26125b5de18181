package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;

/** The requester's pool of memories of closed connections: reused only when both ends are done, and clean. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemoryPoolTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @TempDir
    Path sockets;
    @TempDir
    Path memories;

    private IpcSettings settings(int pool) {
        return IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withMemoryDirectory(memories)
                .withRingBytes(64 << 10).withPoolSize(pool);
    }

    private List<Path> memoryFiles() throws IOException {
        try (Stream<Path> files = Files.list(memories)) {
            return files.toList();
        }
    }

    @Test
    void aMemoryBothEndsClosedIsReusedCleanAndWhatItsRingsStillHeldIsGone() throws Exception {
        IpcSettings settings = settings(4);
        MemoryPool pool = MemoryPool.of(settings);
        IpcTransport transport = new IpcTransport(settings);
        ConnectionAcceptor acceptor = track(transport.listen(0));

        Connection requester = transport.connect("localhost", acceptor.port(), 10 * SECOND);
        Connection accepter = acceptor.accept(10 * SECOND);
        requester.write(frame(requester, "read"));
        assertThat(text(accepter.read(10 * SECOND))).isEqualTo("read");
        requester.write(frame(requester, "never read by the accepter"));
        accepter.write(frame(accepter, "never read by the requester"));
        List<Path> first = memoryFiles();
        assertThat(first).hasSize(1);
        requester.close();
        accepter.close();

        long before = pool.reused();
        Connection again = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        assertThat(pool.reused()).as("the closed connection's memory was reused").isEqualTo(before + 1);
        assertThat(memoryFiles()).as("no new file").isEqualTo(first);
        assertThat(accepted.read(SECOND / 10)).as("nothing of the old connection arrives").isNull();
        assertThat(again.read(SECOND / 10)).as("nothing of the old connection arrives").isNull();
        for (int i = 0; i < 3_000; i++) { // past the end of the 64 KiB rings: the positions went on from the old ones
            again.write(frame(again, "ping " + i));
            assertThat(text(accepted.read(10 * SECOND))).isEqualTo("ping " + i);
            accepted.write(frame(accepted, "pong " + i));
            assertThat(text(again.read(10 * SECOND))).isEqualTo("pong " + i);
        }
    }

    @Test
    void aMemoryWhosePeerIsStillOpenIsNotReusedUntilThePeerCloses() throws Exception {
        IpcSettings settings = settings(4);
        MemoryPool pool = MemoryPool.of(settings);
        IpcTransport transport = new IpcTransport(settings);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = transport.connect("localhost", acceptor.port(), 10 * SECOND);
        Connection accepter = acceptor.accept(10 * SECOND);
        requester.close();

        long before = pool.reused();
        Connection second = transport.connect("localhost", acceptor.port(), 10 * SECOND);
        Connection secondAccepted = acceptor.accept(10 * SECOND);
        assertThat(pool.reused()).as("the accepter still holds the first memory").isEqualTo(before);
        assertThat(memoryFiles()).hasSize(2);
        // The accepter's end still works on the old memory: it reads the requester's close.
        assertThatThrownBy(() -> accepter.read(10 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("closed by the peer");
        accepter.close();

        Connection third = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection thirdAccepted = track(acceptor.accept(10 * SECOND));
        assertThat(pool.reused()).as("the first memory, now that both ends are done").isEqualTo(before + 1);
        third.write(frame(third, "third"));
        assertThat(text(thirdAccepted.read(10 * SECOND))).isEqualTo("third");
        second.write(frame(second, "second"));
        assertThat(text(secondAccepted.read(10 * SECOND))).isEqualTo("second");
        second.close();
        secondAccepted.close();
    }

    @Test
    void aFullPoolDeletesTheOldestFileAndAPoolOfNoneUnlinksEveryFileAtOnce() throws Exception {
        IpcSettings settings = settings(1);
        IpcTransport transport = new IpcTransport(settings);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection a = transport.connect("localhost", acceptor.port(), 10 * SECOND);
        Connection b = transport.connect("localhost", acceptor.port(), 10 * SECOND);
        Connection aAccepted = acceptor.accept(10 * SECOND);
        Connection bAccepted = acceptor.accept(10 * SECOND);
        assertThat(memoryFiles()).hasSize(2);
        a.close();
        b.close(); // the pool holds one: the older of the two goes
        aAccepted.close();
        bAccepted.close();
        assertThat(memoryFiles()).hasSize(1);

        IpcSettings none = settings(0).withMemoryDirectory(Files.createDirectory(memories.resolve("none")));
        IpcTransport unpooled = new IpcTransport(none);
        ConnectionAcceptor other = track(unpooled.listen(0));
        Connection c = track(unpooled.connect("localhost", other.port(), 10 * SECOND));
        Connection cAccepted = track(other.accept(10 * SECOND));
        try (Stream<Path> files = Files.list(none.memoryDirectory())) {
            assertThat(files).as("unlinked once both ends mapped it").isEmpty();
        }
        c.write(frame(c, "still works"));
        assertThat(text(cAccepted.read(10 * SECOND))).isEqualTo("still works");
    }

    @Test
    void aMemoryWhosePeerVanishedWithoutSayingItIsDoneIsDropped() throws Exception {
        MemoryPool pool = MemoryPool.of(settings(4));
        IpcMemory memory = pool.take(); // as a requester's connection would hold it; no accepter ever said done
        Path file = memory.file();
        assertThat(file).exists();
        memory.done(1);
        pool.release(memory, true);
        assertThat(file).as("dropped").doesNotExist();
    }

    @Test
    void aDamagedMemoryIsNotReused() throws Exception {
        MemoryPool pool = MemoryPool.of(settings(4));
        IpcMemory memory = pool.take();
        memory.ring(1).bytes().putInt(0, 0x7FFF_FFF0).putInt(4, Records.FRAME); // a record running past the end
        memory.done(0);
        memory.done(1);
        pool.release(memory, false);
        IpcMemory next = pool.take();
        assertThat(next.file()).as("a fresh memory").isNotEqualTo(memory.file());
        assertThat(memory.file()).as("the damaged one is deleted").doesNotExist();
        pool.drop(next);
    }

    @Test
    void theSweepRemovesOnlyFilesOfProcessesThatNoLongerRun() throws Exception {
        Process child = new ProcessBuilder("true").start();
        child.waitFor(10, TimeUnit.SECONDS);
        long dead = child.pid();
        Path mine = Files.createFile(memories.resolve("sessionj-ipc-" + ProcessHandle.current().pid() + "-1.ring"));
        Path deadOnes = Files.createFile(memories.resolve("sessionj-ipc-" + dead + "-2.ring"));
        Path notOurs = Files.createFile(memories.resolve("sessionj-ipc-notapid-3.ring"));
        Path other = Files.createFile(memories.resolve("unrelated.ring"));
        Path young = Files.createFile(memories.resolve("sessionj-ipc-" + dead + "-4.ring")); // being handed over
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        for (Path p : List.of(mine, deadOnes, notOurs, other)) {
            Files.setLastModifiedTime(p, old);
        }
        assertThat(MemoryPool.sweep(memories)).isEqualTo(ProcessHandle.of(dead).isPresent() ? 0 : 1);
        assertThat(mine).exists();
        assertThat(notOurs).exists();
        assertThat(other).exists();
        assertThat(young).exists();
        if (ProcessHandle.of(dead).isEmpty()) {
            assertThat(deadOnes).doesNotExist();
        }
        assertThat(MemoryPool.pidOf("sessionj-ipc-123-abc.ring")).isEqualTo(123);
        assertThat(MemoryPool.pidOf("sessionj-ipc-x-abc.ring")).isEqualTo(-1);
        assertThat(MemoryPool.pidOf("other-123-abc.ring")).isEqualTo(-1);
    }

    @Test
    void aFileOfAnEndedProcessTooYoungForTheFirstSweepIsRemovedByALaterOneOnceItHasAged() throws Exception {
        Process child = new ProcessBuilder("true").start();
        child.waitFor(10, TimeUnit.SECONDS);
        long dead = child.pid();
        // As a JVM started right after another was killed finds the killed one's files: 18 s old, 2 s
        // short of the age at which a sweep may take them.
        Path young = Files.createFile(memories.resolve("sessionj-ipc-" + dead + "-5.ring"));
        long changed = System.currentTimeMillis() - 18_000;
        Files.setLastModifiedTime(young, java.nio.file.attribute.FileTime.fromMillis(changed));
        Path dir = memories.toAbsolutePath().normalize();
        assertThat(MemoryPool.sweepOnce(dir)).as("the first sweep").isZero();
        assertThat(young).exists();
        if (System.currentTimeMillis() - changed < 19_000) { // not asserted on a machine too loaded to tell
            assertThat(MemoryPool.sweepOnce(dir)).as("a sweep before the file is old enough").isZero();
            assertThat(young).exists();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int removed = 0;
        while (removed == 0 && System.nanoTime() < deadline) {
            Thread.sleep(100); // the file ages; each call is what a new connection does
            removed = MemoryPool.sweepOnce(dir);
        }
        if (ProcessHandle.of(dead).isEmpty()) {
            assertThat(removed).as("a later sweep once the file has aged").isEqualTo(1);
            assertThat(young).doesNotExist();
        }
    }
}
