package org.sessionj.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An in-JVM end whose thread ended without closing it is taken for gone by its peer within the orphan
 * timeout; an end handed to another thread, or merely quiet, is not.
 */
@Timeout(60)
class OrphanedPeerTest {
    private static final long ORPHAN_TIMEOUT = TimeUnit.MILLISECONDS.toNanos(200);
    private final ShmConnection[] ends = ShmConnection.pair(ByteBufAllocator.DEFAULT, new ShmSettings(64 * 1024, ORPHAN_TIMEOUT));
    private final ShmConnection mine = ends[0];
    private final ShmConnection theirs = ends[1];

    /** Runs {@code use} on a thread of its own named {@code name} and waits until that thread has ended. */
    private static void onAThreadThatEnds(String name, ThrowingRunnable use) throws Exception {
        Thread thread = new Thread(() -> {
            try {
                use.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, name);
        thread.start();
        thread.join(10_000);
        assertThat(thread.isAlive()).isFalse();
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void aReaderWaitingOnAPeerWhoseThreadEndedFailsWithinTheOrphanTimeout() throws Exception {
        onAThreadThatEnds("worker-7", () -> theirs.write(theirs.frameBuffer(4).writeInt(1)));
        mine.read(-1).release();
        long started = System.nanoTime();
        assertThatThrownBy(() -> mine.read(-1)).isInstanceOf(IOException.class)
                .hasMessageContaining("orphaned").hasMessageContaining("\"worker-7\"")
                .hasMessageContaining("sessionj.shm.orphanTimeout");
        long waited = System.nanoTime() - started;
        assertThat(waited).as("detected after the grace, within the timeout (and scheduling)")
                .isGreaterThanOrEqualTo(ORPHAN_TIMEOUT / 2).isLessThan(TimeUnit.SECONDS.toNanos(10));
    }

    @Test
    void aTimedReadIsWatchedToo() throws Exception {
        onAThreadThatEnds("worker-8", () -> theirs.read(0));
        assertThatThrownBy(() -> mine.read(TimeUnit.SECONDS.toNanos(20))).isInstanceOf(IOException.class)
                .hasMessageContaining("\"worker-8\"");
    }

    @Test
    void anEndHandedOverIsNotJudgedByTheThreadThatHandedItOver() throws Exception {
        onAThreadThatEnds("handshake", () -> {
            theirs.write(theirs.frameBuffer(4).writeInt(1));
            theirs.releaseOwner();
        });
        mine.read(-1).release();
        assertThat(mine.read(4 * ORPHAN_TIMEOUT)).as("a quiet peer: the read times out").isNull();
        // The new owner takes over and answers.
        onAThreadThatEnds("new owner", () -> {
            theirs.write(theirs.frameBuffer(4).writeInt(2));
            theirs.close();
        });
        ByteBuf answer = mine.read(-1);
        assertThat(answer.readInt()).isEqualTo(2);
        answer.release();
    }

    @Test
    void aPeerWhoseThreadLivesIsNeverTakenForGone() throws Exception {
        theirs.write(theirs.frameBuffer(4).writeInt(1)); // this thread owns both ends and is alive
        mine.read(-1).release();
        assertThat(mine.read(5 * ORPHAN_TIMEOUT)).isNull();
    }

    @Test
    void anEndClosedByItsThreadEndsTheReadAsAClose() throws Exception {
        onAThreadThatEnds("closer", theirs::close);
        assertThatThrownBy(() -> mine.read(-1)).isInstanceOf(IOException.class)
                .hasMessageContaining("closed by the peer").hasMessageNotContaining("orphaned");
    }

    @Test
    void aWriterWaitingForRoomOnAReaderWhoseThreadEndedFails() throws Exception {
        onAThreadThatEnds("reader-3", () -> theirs.read(0));
        assertThatThrownBy(() -> {
            for (int i = 0; i < 1_000; i++) {
                mine.write(mine.frameBuffer(8192).writeZero(8192));
            }
        }).isInstanceOf(IOException.class).hasMessageContaining("orphaned").hasMessageContaining("\"reader-3\"")
                .hasMessageContaining("for room to write");
    }

    @Test
    void theOrphanTimeoutComesFromTheSystemPropertyAndNoneTurnsItOff() {
        String old = System.getProperty("sessionj.shm.orphanTimeout");
        try {
            System.setProperty("sessionj.shm.orphanTimeout", "500ms");
            assertThat(ShmSettings.fromSystemProperties().orphanTimeoutNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
            System.setProperty("sessionj.shm.orphanTimeout", "none");
            assertThat(ShmSettings.fromSystemProperties().watchNanos()).isZero();
            System.setProperty("sessionj.shm.orphanTimeout", "soon");
            assertThatThrownBy(ShmSettings::fromSystemProperties).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sessionj.shm.orphanTimeout");
        } finally {
            if (old == null) {
                System.clearProperty("sessionj.shm.orphanTimeout");
            } else {
                System.setProperty("sessionj.shm.orphanTimeout", old);
            }
        }
        assertThat(ShmSettings.fromSystemProperties().orphanTimeoutNanos())
                .isEqualTo(ShmSettings.DEFAULT_ORPHAN_TIMEOUT.toNanos());
    }
}
