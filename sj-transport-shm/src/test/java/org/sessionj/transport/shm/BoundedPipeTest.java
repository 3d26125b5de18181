package org.sessionj.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.WriteTimeoutException;

/** Each direction of an in-JVM connection holds at most about its backlog bound; a writer past it waits. */
@Timeout(60)
class BoundedPipeTest {
    private static final int BOUND = 64 * 1024;
    private static final int FRAME = 8 * 1024;
    private final ShmConnection[] ends = ShmConnection.pair(ByteBufAllocator.DEFAULT, new ShmSettings(BOUND, 0));
    private final ShmConnection writer = ends[0];
    private final ShmConnection reader = ends[1];

    private ByteBuf frame(int bytes, int fill) {
        ByteBuf frame = writer.frameBuffer(bytes);
        for (int i = 0; i < bytes / 4; i++) {
            frame.writeInt(fill);
        }
        return frame;
    }

    @Test
    void aWriterWhoseReaderDoesNotReadIsStoppedAtTheBoundAndTimesOut() {
        writer.sendTimeout(TimeUnit.MILLISECONDS.toNanos(200));
        long started = System.nanoTime();
        int written = 0;
        IOException failure = null;
        try {
            while (written < 10_000) {
                writer.write(frame(FRAME, written));
                written++;
            }
        } catch (IOException e) {
            failure = e;
        }
        assertThat(failure).isInstanceOf(WriteTimeoutException.class)
                .hasMessageContaining("sessionj.shm.backlogBytes").hasMessageContaining("took nothing for PT0.2S");
        assertThat((long) written * FRAME).as("bytes taken before the writer waited").isEqualTo(BOUND);
        assertThat(writer.outboundUnreadBytes()).isLessThanOrEqualTo(BOUND);
        assertThat(System.nanoTime() - started).as("waited about the send timeout, not for ever")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200)).isLessThan(TimeUnit.SECONDS.toNanos(30));
    }

    @Test
    void aSingleFrameLargerThanTheBoundStillGoesThrough() throws Exception {
        writer.sendTimeout(TimeUnit.MILLISECONDS.toNanos(200));
        writer.write(frame(4 * BOUND, 1));
        ByteBuf received = reader.read(-1);
        assertThat(received.readableBytes()).isEqualTo(4 * BOUND);
        received.release();
        writer.write(frame(FRAME, 2)); // room again once it was read
        reader.read(-1).release();
    }

    @Test
    void aBlockedWriterGoesOnAsTheReaderReadsAndEveryFrameArrivesInOrder() throws Exception {
        int frames = 200; // 1.6 MiB through a 64 KiB bound
        CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
            try {
                for (int i = 0; i < frames; i++) {
                    writer.write(frame(FRAME, i));
                    assertThat(writer.outboundUnreadBytes()).isLessThanOrEqualTo(BOUND + FRAME);
                }
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        for (int i = 0; i < frames; i++) {
            ByteBuf received = reader.read(TimeUnit.SECONDS.toNanos(20));
            assertThat(received).as("frame %d", i).isNotNull();
            assertThat(received.getInt(0)).isEqualTo(i);
            received.release();
            if (i % 16 == 0) {
                Thread.onSpinWait();
            }
        }
        writing.get(20, TimeUnit.SECONDS);
        assertThat(writer.outboundUnreadBytes()).isZero();
    }

    @Test
    void aWriterWaitingForRoomFailsAtOnceWhenTheReaderCloses() throws Exception {
        for (int i = 0; i < BOUND / FRAME; i++) {
            writer.write(frame(FRAME, i));
        }
        CompletableFuture<Throwable> blocked = new CompletableFuture<>();
        Thread waiting = Thread.ofPlatform().start(() -> {
            try {
                writer.write(frame(FRAME, -1));
                blocked.complete(null);
            } catch (IOException e) {
                blocked.complete(e);
            }
        });
        BlockedThreads.awaitParked(waiting); // the writer waits for room
        reader.close();
        assertThat(blocked.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class)
                .isNotInstanceOf(WriteTimeoutException.class).hasMessageContaining("closed");
    }

    @Test
    void passedReferencesCountAgainstTheBoundToo() {
        writer.sendTimeout(TimeUnit.MILLISECONDS.toNanos(100));
        int passed = 0;
        IOException failure = null;
        try {
            while (passed < 1_000_000) {
                writer.writeReference(passed);
                passed++;
            }
        } catch (IOException e) {
            failure = e;
        }
        assertThat(failure).isInstanceOf(WriteTimeoutException.class);
        assertThat(passed).isEqualTo(BOUND / Pipe.REFERENCE_BYTES);
    }

    @Test
    void theBoundComesFromTheSystemProperty() {
        String old = System.getProperty("sessionj.shm.backlogBytes");
        System.setProperty("sessionj.shm.backlogBytes", "12345");
        try {
            assertThat(ShmSettings.fromSystemProperties().backlogBytes()).isEqualTo(12345);
            System.setProperty("sessionj.shm.backlogBytes", "0");
            assertThatThrownBy(ShmSettings::fromSystemProperties).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sessionj.shm.backlogBytes");
        } finally {
            if (old == null) {
                System.clearProperty("sessionj.shm.backlogBytes");
            } else {
                System.setProperty("sessionj.shm.backlogBytes", old);
            }
        }
        assertThat(ShmSettings.fromSystemProperties().backlogBytes()).isEqualTo(ShmSettings.DEFAULT_BACKLOG_BYTES);
    }
}
