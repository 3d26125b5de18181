package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.support.Heartbeat;

/**
 * The keeper of a blocking TCP connection keeps watching whatever its heartbeat writes do (a write
 * into full socket buffers blocks until the socket closes), and tells a frozen peer (it sends
 * nothing) from a live one (its heartbeats arrive, unread) under a write that waits.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BlockingKeeperTest {
    private static final Heartbeat FAST = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(50), TimeUnit.MILLISECONDS.toNanos(300));

    /** A connection whose heartbeat writes block until it is aborted, as into a peer that stopped reading. */
    private static final class Stuck implements BlockingKeeper.Kept {
        final CountDownLatch aborted = new CountDownLatch(1);
        final AtomicInteger heartbeats = new AtomicInteger();
        volatile int unread;
        BlockingKeeper keeper;

        @Override
        public boolean writeHeartbeat() {
            heartbeats.incrementAndGet();
            keeper.writing();
            try {
                aborted.await();
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                keeper.wrote();
            }
        }

        @Override
        public int unread() {
            return aborted.getCount() == 0 ? -1 : unread;
        }

        @Override
        public void abort() {
            aborted.countDown();
        }

        @Override
        public boolean isClosed() {
            return aborted.getCount() == 0;
        }
    }

    @Test
    void aHeartbeatThatBlocksDoesNotStopTheKeeperFromEndingASilentRead() throws InterruptedException {
        Stuck connection = new Stuck();
        BlockingKeeper keeper = new BlockingKeeper(connection, FAST);
        connection.keeper = keeper;
        keeper.startIfNeeded();
        keeper.reading(); // an untimed read from a peer that sends nothing
        assertThat(connection.aborted.await(10, TimeUnit.SECONDS))
                .as("the read is ended although the heartbeat write never returned").isTrue();
        assertThat(connection.heartbeats.get()).as("one heartbeat at a time, on its own thread").isEqualTo(1);
        assertThat(keeper.silent() || keeper.frozen()).isTrue();
    }

    @Test
    void aWriteThatWaitsWhileThePeerSendsNothingEndsAfterTheHeartbeatTimeoutWithNoSendTimeout()
            throws InterruptedException {
        Stuck connection = new Stuck();
        BlockingKeeper keeper = new BlockingKeeper(connection, FAST);
        connection.keeper = keeper;
        keeper.startIfNeeded();
        long started = System.nanoTime();
        keeper.writing(); // and never returns: the peer is frozen
        assertThat(connection.aborted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(System.nanoTime() - started).as("not before the heartbeat timeout")
                .isGreaterThanOrEqualTo(FAST.timeoutNanos());
        assertThat(keeper.frozen()).isTrue();
        assertThat(keeper.timedOut()).as("no send timeout was set").isFalse();
    }

    @Test
    void aWriteThatWaitsWhileThePeerStillSendsIsLeftWaiting() throws InterruptedException {
        // Slower than FAST: the peer below must not look silent when this machine is loaded.
        Heartbeat heartbeat = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.SECONDS.toNanos(1));
        Stuck connection = new Stuck();
        BlockingKeeper keeper = new BlockingKeeper(connection, heartbeat);
        connection.keeper = keeper;
        keeper.startIfNeeded();
        keeper.writing();
        // The peer's runtime sends a heartbeat every interval and nobody reads it; now and then a read
        // takes what waits (the sum of read and unread bytes must not fall then).
        long end = System.nanoTime() + 3 * heartbeat.timeoutNanos();
        for (int i = 0; System.nanoTime() < end; i++) {
            connection.unread += FrameDecoder.HEADER_BYTES;
            if (i % 3 == 2) {
                keeper.received(connection.unread);
                connection.unread = 0;
            }
            assertThat(connection.aborted.await(heartbeat.intervalNanos(), TimeUnit.NANOSECONDS))
                    .as("a live peer's connection is not closed under a waiting write").isFalse();
        }
        // Then it falls silent.
        assertThat(connection.aborted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(keeper.frozen()).isTrue();
    }
}
