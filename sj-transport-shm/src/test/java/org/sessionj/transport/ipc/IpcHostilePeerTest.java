package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;

/**
 * A local peer can lie too: it writes what it likes into the memory both processes map and onto the
 * doorbell socket. Whatever it writes must end in an error naming what was found, never a JVM crash,
 * a read outside the ring, a reader looping for ever, or the JVM's doorbell thread held for others.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IpcHostilePeerTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** Where a ring's consumer position lies in its region: after the data and the tail's cache lines. */
    private static final int HEAD_AFTER_DATA = 128;

    @TempDir
    Path sockets;
    @TempDir
    Path memories;

    private IpcSettings settings() {
        return IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withMemoryDirectory(memories)
                .withPoolSize(0);
    }

    private Connection[] pair(IpcSettings settings) throws IOException {
        IpcTransport transport = new IpcTransport(settings);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection requester = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        return new Connection[] {requester, accepter};
    }

    /**
     * A padding record whose length is within 8 of Integer.MAX_VALUE: aligned to 8 it overflowed to
     * -2^31, which passed the bound, and moving the head back by 2^31 (a multiple of any ring's size)
     * landed on the same record: the reader looped there for ever, and no close could stop it.
     */
    @Test
    void aRecordLengthThatOverflowsWhenAlignedIsACorruptRingNotAnEndlessLoop() throws Exception {
        Connection[] ends = pair(settings());
        ByteBuffer raw = ((IpcConnection) ends[1]).memory().ring(0).bytes();
        raw.putInt(4, SharedRing.PADDING);
        raw.order(ByteOrder.nativeOrder()).putInt(0, Integer.MAX_VALUE - 6);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> { // a daemon: without the fix it never returns
            try {
                ByteBuf frame = ends[1].read(5 * SECOND);
                outcome.complete(new AssertionError("read " + frame));
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        assertThat(outcome.get(60, TimeUnit.SECONDS)).isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt ipc ring from the peer: a record of 2147483641 bytes at 0 in a ring of");
        reader.join(10_000);
    }

    /**
     * A ring position (the consumer's head, which the requester initialises) that is no record boundary
     * would make every later access misaligned (an IllegalStateException out of a write): the accepter
     * refuses the memory when it maps it, saying so.
     */
    @Test
    void aRingPositionThatIsNoRecordBoundaryIsRefusedWhenTheMemoryIsMapped() throws Exception {
        IpcSettings settings = settings();
        ConnectionAcceptor acceptor = track(new IpcTransport(settings).listen(0));
        for (int direction = 0; direction < 2; direction++) {
            IpcMemory.Created created = IpcMemory.create(memories, settings.ringBytes());
            created.memory().ring(direction).bytes().order(ByteOrder.nativeOrder())
                    .putLong(settings.ringBytes() + HEAD_AFTER_DATA, 12_345);
            try (SocketChannel raw = SocketChannel.open(UnixDomainSocketAddress.of(
                    IpcTransport.socketFile(settings, acceptor.port())))) {
                Handshake.sendOpen(raw, created.file());
                assertThatThrownBy(() -> Handshake.readAnswer(raw, System.nanoTime() + 10 * SECOND))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("ring " + direction + " has a ring position of 12345, not a multiple of 8");
            } finally {
                created.memory().unmap();
            }
        }
    }

    /** The same lie left in a memory the requester's pool would reuse: the memory is not reused. */
    @Test
    void aMemoryWhosePeerLeftARingPositionThatIsNoRecordBoundaryIsNotReused() throws Exception {
        IpcMemory memory = IpcMemory.create(memories, settings().ringBytes()).memory();
        try {
            assertThat(memory.reset()).as("a fresh memory is reusable").isTrue();
            memory.ring(0).bytes().order(ByteOrder.nativeOrder()).putLong(settings().ringBytes() + HEAD_AFTER_DATA, 3);
            assertThat(memory.reset()).isFalse();
        } finally {
            memory.unmap();
        }
    }

    /**
     * Bells the peer wrote faster than the doorbell thread reads them: the thread reads a few times per
     * turn ({@link Doorbells#MAX_DRAIN_READS} reads of 256 bytes) and serves the other connections between
     * turns, so 32 KiB waiting take it at least 8 turns, each waking the listener. Before, it read on while
     * every read came back full: one turn took them all, and a peer writing bells faster than 256-byte reads
     * held the JVM's one doorbell thread (every other connection whose reader sleeps) for as long as it liked.
     */
    @Test
    void bellsWaitingOnADoorbellAreReadAFewAtATurnSoAFloodCannotHoldTheDoorbellThread() throws Exception {
        IpcSettings settings = settings();
        IpcTransport transport = new IpcTransport(settings);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        IpcMemory.Created created = IpcMemory.create(memories, settings.ringBytes());
        try (SocketChannel flood = SocketChannel.open(UnixDomainSocketAddress.of(
                IpcTransport.socketFile(settings, acceptor.port())))) {
            Handshake.sendOpen(flood, created.file());
            Handshake.readAnswer(flood, System.nanoTime() + 10 * SECOND);
            Connection flooded = track(acceptor.accept(10 * SECOND));
            int bells = 32 * 1024;
            ByteBuffer burst = ByteBuffer.allocate(bells);
            while (burst.hasRemaining()) {
                flood.write(burst);
            }
            java.util.concurrent.atomic.AtomicInteger turns = new java.util.concurrent.atomic.AtomicInteger();
            flooded.readinessListener(turns::incrementAndGet); // watched by the doorbell thread from now on
            int least = bells / (Doorbells.MAX_DRAIN_READS * 256) / 2; // half: a heartbeat turn may have taken some
            long deadline = System.nanoTime() + 30 * SECOND;
            while (turns.get() < least && System.nanoTime() < deadline) {
                Thread.sleep(10); // polling a counter the doorbell thread moves; no ordering depends on it
            }
            assertThat(turns.get()).as("turns of the doorbell thread that woke the flooded connection").isGreaterThanOrEqualTo(least);

            // And other connections are served meanwhile: readers on virtual threads, woken by that thread only.
            Connection[] ends = pair(settings.withSpins(0).withYields(0).withSpinMicros(0));
            AtomicBoolean flooding = new AtomicBoolean(true);
            Thread flooder = Thread.ofPlatform().daemon().start(() -> {
                ByteBuffer chunk = ByteBuffer.allocateDirect(64 * 1024);
                try {
                    while (flooding.get()) {
                        flood.write(chunk.clear());
                    }
                } catch (IOException e) {
                    // closed at the end
                }
            });
            try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
                CompletableFuture<Void> rounds = CompletableFuture.runAsync(() -> {
                    try {
                        for (int i = 0; i < 100; i++) {
                            ends[0].write(ends[0].alloc().buffer(4).writeInt(i));
                            ByteBuf there = ends[1].read(30 * SECOND);
                            assertThat(there).as("round %d there", i).isNotNull();
                            ends[1].write(there);
                            ByteBuf back = ends[0].read(30 * SECOND);
                            assertThat(back).as("round %d back", i).isNotNull();
                            back.release();
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }, threads);
                rounds.get(100, TimeUnit.SECONDS);
            } finally {
                flooding.set(false);
                flood.close();
                flooder.join(10_000);
            }
        } finally {
            created.memory().unmap();
        }
    }

    /**
     * A peer that sends requests and never reads the answers: the answers wait in the writer's backlog,
     * bounded by {@code sessionj.ipc.backlogBytes}, which now charges each frame {@link IpcOutbound#FRAME_COST}
     * bytes beyond its own. Before, it counted bytes only: a 4 MiB bound held 488,448 nine-byte answers,
     * 78 MB of heap and their direct buffers, for one peer (hostile H6). With a 64 KiB bound and a 4 KiB ring:
     * at most 64 KiB / (9 + 128) frames wait, plus what the ring holds, not 64 KiB / 9.
     */
    @Test
    void tinyFramesAPeerNeverReadsAreBoundedByCountNotOnlyByBytes() throws Exception {
        int bound = 64 * 1024;
        Connection[] ends = pair(settings().withRingBytes(IpcSettings.MIN_RING).withBacklogBytes(bound));
        ends[1].sendTimeout(TimeUnit.MILLISECONDS.toNanos(100));
        int written = 0;
        try {
            while (written < 100_000) {
                ends[1].write(ends[1].alloc().buffer(9).writeZero(9));
                written++;
            }
        } catch (org.sessionj.runtime.spi.WriteTimeoutException expected) {
            assertThat(expected).hasMessageContaining("128 per frame");
        }
        int ringRecords = IpcSettings.MIN_RING / 24; // a 9-byte frame is a 24-byte record
        assertThat(written).as("frames taken before the writer had to wait")
                .isLessThanOrEqualTo(ringRecords + bound / (9 + IpcOutbound.FRAME_COST) + 1);
    }
}
