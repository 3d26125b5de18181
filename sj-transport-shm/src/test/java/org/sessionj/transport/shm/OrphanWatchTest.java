package org.sessionj.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The orphan watch's lists: a parked reader's pipe is listed once however often it parks, stays
 * while its reader waits, leaves at the first look after the reader stopped waiting, and comes back
 * when it parks again; a parked reader's wait costs no memory. Tested on a watch without a thread (its
 * ticks called here) and pipes whose settings keep them off the JVM's own watch.
 */
@Timeout(60)
class OrphanWatchTest {
    /** No orphan timeout: the pipe's reader never registers with the JVM's watch by itself. */
    private static final ShmSettings UNWATCHED = new ShmSettings(64 * 1024, 0);

    private final OrphanWatch watch = new OrphanWatch(false);

    private static Thread readerOf(Pipe pipe, AtomicReference<Object> got) {
        return Thread.ofPlatform().start(() -> {
            try {
                got.set(pipe.take(-1));
            } catch (Exception e) {
                got.set(e);
            }
        });
    }

    private static void awaitReaderParked(Pipe pipe) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!pipe.readerParked()) {
            assertThat(System.nanoTime()).as("the reader parks").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void aParkedReadersPipeIsListedOnceAndLeavesAtTheFirstLookAfterItsReaderStoppedWaiting() throws Exception {
        Pipe pipe = new Pipe(UNWATCHED);
        AtomicReference<Object> got = new AtomicReference<>();
        Thread reader = readerOf(pipe, got);
        awaitReaderParked(pipe);
        watch.register(pipe, 1);
        watch.register(pipe, 1); // parked again before the watch looked: not listed twice
        watch.tick();
        assertThat(watch.watchedCount()).isEqualTo(1);
        watch.tick();
        assertThat(watch.watchedCount()).as("kept while the reader waits").isEqualTo(1);

        ByteBuf frame = Unpooled.buffer(4).writeInt(1);
        assertThat(pipe.offer(frame)).isTrue();
        reader.join(10_000);
        assertThat(got.get()).isSameAs(frame);
        frame.release();
        watch.tick();
        assertThat(watch.watchedCount()).as("off the list once its reader no longer waits").isZero();
        assertThat(pipe.list()).as("and off the flag: the next park lists it again").isTrue();
    }

    @Test
    void aReaderThatParksAgainIsWatchedAgain() throws Exception {
        Pipe pipe = new Pipe(UNWATCHED);
        Pipe other = new Pipe(UNWATCHED);
        AtomicReference<Object> got = new AtomicReference<>();
        Thread first = readerOf(pipe, got);
        Thread second = readerOf(other, new AtomicReference<>());
        awaitReaderParked(pipe);
        awaitReaderParked(other);
        watch.register(pipe, 1);
        watch.register(other, 1);
        watch.tick();
        assertThat(watch.watchedCount()).isEqualTo(2);

        pipe.offer(Unpooled.buffer(4).writeInt(1));
        first.join(10_000);
        ((ByteBuf) got.get()).release();
        watch.tick();
        assertThat(watch.watchedCount()).as("the waiting one stays").isEqualTo(1);

        Thread again = readerOf(pipe, got);
        awaitReaderParked(pipe);
        watch.register(pipe, 1);
        watch.tick();
        assertThat(watch.watchedCount()).isEqualTo(2);

        pipe.close();
        other.close();
        again.join(10_000);
        second.join(10_000);
        watch.tick();
        assertThat(watch.watchedCount()).as("closed pipes leave at the next look").isZero();
    }

    @Test
    void parkingAndWakingAWatchedReaderAllocatesNothingPerWait() throws Exception {
        // A watched connection (the JVM's watch, 2 s timeout): the reader parks for every frame.
        ShmConnection[] ends = ShmConnection.pair(ByteBufAllocator.DEFAULT, new ShmSettings(1 << 20, TimeUnit.SECONDS.toNanos(2)));
        ShmConnection writer = ends[0];
        ShmConnection reader = ends[1];
        int rounds = 20_000;
        long[] allocated = new long[1];
        Thread readerThread = Thread.ofPlatform().start(() -> {
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            try {
                for (int i = 0; i < rounds; i++) {
                    if (i == rounds / 2) {
                        allocated[0] = threads.getCurrentThreadAllocatedBytes();
                    }
                    reader.readFrame(-1).release();
                }
                allocated[0] = threads.getCurrentThreadAllocatedBytes() - allocated[0];
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        for (int i = 0; i < rounds; i++) {
            // Wait until the reader is parked, so that every read below is a watched wait.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!reader.readerParkedForTest() && readerThread.isAlive()) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.onSpinWait();
            }
            // Heap frames, as sessions write them (a ByteBuf written is copied into one, read back as a copy).
            writer.writeFrame(writer.newFrame(4).writeInt(i));
        }
        readerThread.join(30_000);
        assertThat(allocated[0] / (double) (rounds / 2)).as("bytes allocated per watched wait").isLessThan(4.0);
    }
}
