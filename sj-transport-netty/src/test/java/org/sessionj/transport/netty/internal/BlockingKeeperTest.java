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

    /**
     * A connection for a keeper driven by the test's clock ({@link BlockingKeeper#look}): heartbeats
     * are written at once on the looking thread, and everything the keeper does is recorded.
     */
    private static final class Recorded implements BlockingKeeper.Kept {
        BlockingKeeper keeper;
        int heartbeats;
        int unread;
        boolean aborted;

        @Override
        public boolean writeHeartbeat() {
            heartbeats++;
            keeper.writing();
            keeper.wrote();
            return true;
        }

        @Override
        public int unread() {
            return aborted ? -1 : unread;
        }

        @Override
        public void abort() {
            aborted = true;
        }

        @Override
        public boolean isClosed() {
            return aborted;
        }
    }

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final Heartbeat HB = new Heartbeat(100 * MS, 1000 * MS);

    /** The test's clock: starts well away from 0 (a start time of 0 means "nothing under way"). */
    private final long[] now = {TimeUnit.HOURS.toNanos(1)};

    private Recorded recorded(Heartbeat heartbeat) {
        Recorded connection = new Recorded();
        connection.keeper = new BlockingKeeper(connection, heartbeat, () -> now[0], Runnable::run);
        return connection;
    }

    private long look(Recorded connection) {
        return connection.keeper.look(now[0]);
    }

    /** A session's watch whose owner the test sets (adv18 A13), recording what it is told. */
    private static final class Owned implements org.sessionj.runtime.spi.OwnerWatch {
        volatile Thread owner;
        final java.util.List<Thread> ended = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public Thread idleOwner() {
            return owner;
        }

        @Override
        public void ownerEnded(Thread thread) {
            ended.add(thread);
        }
    }

    @Test
    void aSessionWhoseThreadEndedIsToldAtTheSecondHeartbeatDueAndALiveOneNever() throws InterruptedException {
        Recorded connection = recorded(HB);
        Owned watch = new Owned();
        connection.keeper.ownerWatch(watch);
        watch.owner = Thread.currentThread();
        for (int i = 0; i < 10; i++) { // a live owner, idle for ten intervals
            now[0] += HB.intervalNanos();
            look(connection);
        }
        assertThat(watch.ended).isEmpty();
        Thread ended = Thread.ofPlatform().start(() -> { });
        ended.join();
        watch.owner = ended;
        now[0] += HB.intervalNanos();
        look(connection);
        assertThat(watch.ended).as("seen ended once: the grace").isEmpty();
        now[0] += HB.intervalNanos() / 2;
        look(connection);
        assertThat(watch.ended).as("no heartbeat due: no look").isEmpty();
        now[0] += HB.intervalNanos() / 2;
        look(connection);
        assertThat(watch.ended).as("seen ended at two heartbeats in a row").containsExactly(ended);
        assertThat(connection.aborted).as("the session fails it, not the keeper").isFalse();
    }

    @Test
    void aWriteThatWaitsWhileThePeerStillSendsIsLeftWaitingForAsLongAsItsHeartbeatsComeAndEndsOnceTheyStop() {
        Recorded connection = recorded(HB);
        BlockingKeeper keeper = connection.keeper;
        keeper.writing(); // and the peer takes nothing
        // Fifty intervals, five heartbeat timeouts: the peer's runtime sends a heartbeat every interval
        // and nobody reads it; now and then a read takes what waits (the sum must not fall then).
        for (int i = 0; i < 50; i++) {
            now[0] += HB.intervalNanos();
            connection.unread += FrameDecoder.HEADER_BYTES;
            if (i % 3 == 2) {
                keeper.received(connection.unread);
                connection.unread = 0;
            }
            assertThat(look(connection)).as("look %d", i).isPositive();
            assertThat(connection.aborted).as("a live peer's connection is not closed under a waiting write").isFalse();
        }
        assertThat(connection.heartbeats).as("no heartbeat of its own while a write is under way").isZero();
        // Then it falls silent: the write ends at the first look a whole timeout after it was last heard.
        long lastHeard = now[0];
        while (!connection.aborted) {
            long pause = look(connection);
            if (connection.aborted) {
                assertThat(pause).isEqualTo(-1);
                break;
            }
            assertThat(now[0] - lastHeard).as("not before the timeout").isLessThan(HB.timeoutNanos());
            assertThat(pause).as("looks often enough under a waiting write").isLessThanOrEqualTo(HB.timeoutNanos() / 8);
            now[0] += pause;
        }
        assertThat(now[0] - lastHeard).as("as soon as a look comes after the timeout")
                .isBetween(HB.timeoutNanos(), HB.timeoutNanos() + HB.timeoutNanos() / 8);
        assertThat(keeper.frozen()).isTrue();
        assertThat(keeper.timedOut()).as("no send timeout was set").isFalse();
    }

    /**
     * A flush reads the clock once, when its write starts; the write counts as written from then (or from
     * its last progress), so a flush on the path of every round trip costs one clock read, not two.
     */
    @Test
    void aWriteReadsTheClockOnceAndCountsAsWrittenWhenItStarted() {
        int[] reads = {0};
        Recorded connection = new Recorded();
        BlockingKeeper keeper = new BlockingKeeper(connection, HB, () -> {
            reads[0]++;
            return now[0];
        }, Runnable::run);
        connection.keeper = keeper;
        int before = reads[0];
        keeper.writing();
        now[0] += HB.intervalNanos() / 2; // the write takes a while
        keeper.wrote();
        assertThat(reads[0] - before).as("clock reads of one write").isEqualTo(1);
        now[0] += HB.intervalNanos() / 2 - 1;
        assertThat(keeper.look(now[0])).as("an interval after the write started, less 1 ns").isEqualTo(1);
        assertThat(connection.heartbeats).isZero();
        now[0] += 1;
        keeper.look(now[0]);
        assertThat(connection.heartbeats).isEqualTo(1);
    }

    @Test
    void anIdleConnectionIsSentAHeartbeatEveryIntervalAndAWriteCountsAsOne() {
        Recorded connection = recorded(HB);
        BlockingKeeper keeper = connection.keeper;
        now[0] += HB.intervalNanos() - 1;
        assertThat(look(connection)).as("wakes when the interval is up").isEqualTo(1);
        assertThat(connection.heartbeats).isZero();
        now[0] += 1;
        assertThat(look(connection)).isEqualTo(HB.intervalNanos());
        assertThat(connection.heartbeats).isEqualTo(1);
        now[0] += HB.intervalNanos() / 2;
        keeper.writing(); // the program writes: no heartbeat is needed for another interval
        keeper.wrote();
        now[0] += HB.intervalNanos() - 1;
        assertThat(look(connection)).isEqualTo(1);
        assertThat(connection.heartbeats).isEqualTo(1);
        now[0] += 1;
        look(connection);
        assertThat(connection.heartbeats).isEqualTo(2);
        // Idle for a long while (the keeper was not scheduled): one heartbeat, not one per missed interval.
        now[0] += 10 * HB.timeoutNanos();
        look(connection);
        assertThat(connection.heartbeats).isEqualTo(3);
        assertThat(connection.aborted).as("nothing is read, nothing waits: no reason to end").isFalse();
    }

    @Test
    void anUntimedReadEndsAtTheFirstLookAfterItHeardNothingForTheTimeoutAndNotBefore() {
        Recorded connection = recorded(HB);
        BlockingKeeper keeper = connection.keeper;
        keeper.reading();
        long started = now[0];
        while (!connection.aborted) {
            long pause = look(connection);
            if (connection.aborted) {
                break;
            }
            assertThat(now[0] - started).isLessThan(HB.timeoutNanos());
            now[0] += pause;
        }
        assertThat(now[0] - started).as("the keeper wakes for the deadline itself").isEqualTo(HB.timeoutNanos());
        assertThat(keeper.silent()).isTrue();
        assertThat(keeper.frozen()).isFalse();
    }

    /**
     * An untimed read costs no clock read (the keeper times it from its own looks): on a request/response
     * loop over blocking tcp every message starts one.
     */
    @Test
    void anUntimedReadReadsNoClock() {
        int[] reads = {0};
        Recorded connection = new Recorded();
        BlockingKeeper keeper = new BlockingKeeper(connection, HB, () -> {
            reads[0]++;
            return now[0];
        }, Runnable::run);
        connection.keeper = keeper;
        int before = reads[0];
        for (int i = 0; i < 3; i++) {
            keeper.reading();
            keeper.received(13);
            keeper.readDone();
        }
        assertThat(reads[0] - before).as("clock reads of three reads").isZero();
    }

    /**
     * A read that starts while the keeper sleeps is timed from the keeper's look before it: ended once the
     * peer has been heard from by nothing for the whole timeout since that look, which may be less than the
     * timeout after the read started (by at most the time between two looks, an interval here), never
     * before the peer was silent for the timeout.
     */
    @Test
    void aReadThatStartsBetweenLooksIsEndedOnceThePeerWasSilentForTheTimeoutSinceTheLookBefore() {
        Recorded connection = recorded(HB);
        BlockingKeeper keeper = connection.keeper;
        connection.unread = 4; // a heartbeat heard at this look
        long pause = look(connection);
        long lastHeard = now[0];
        assertThat(pause).as("no read seen yet: the next look at the interval").isEqualTo(HB.intervalNanos());
        keeper.received(4);
        connection.unread = 0;
        now[0] += HB.intervalNanos() / 2;
        keeper.reading(); // half an interval after that look
        long started = now[0];
        now[0] = lastHeard + pause;
        while (!connection.aborted) {
            long next = look(connection);
            if (connection.aborted) {
                break;
            }
            assertThat(now[0] - lastHeard).as("not before the peer was silent for the timeout").isLessThan(HB.timeoutNanos());
            now[0] += next;
        }
        assertThat(now[0] - lastHeard).as("the look that wakes for it").isEqualTo(HB.timeoutNanos());
        assertThat(now[0] - started).as("the read itself waited less, by what it started after that look")
                .isEqualTo(HB.timeoutNanos() - HB.intervalNanos() / 2);
        assertThat(keeper.silent()).isTrue();
    }

    /** A later read is a new read: the silence of one that ended does not count against the next one. */
    @Test
    void aNewReadAfterOneThatHeardSomethingStartsItsOwnCount() {
        Recorded connection = recorded(HB);
        BlockingKeeper keeper = connection.keeper;
        keeper.reading();
        look(connection);
        now[0] += HB.timeoutNanos() - MS; // almost the whole timeout silent
        look(connection);
        keeper.received(13); // then the frame comes: this read ends, the next starts
        keeper.readDone();
        keeper.reading();
        now[0] += 2 * MS;
        look(connection); // hears the frame
        assertThat(connection.aborted).as("the peer was heard since the last look").isFalse();
        now[0] += HB.timeoutNanos() - MS;
        look(connection);
        assertThat(connection.aborted).isFalse();
        now[0] += MS;
        look(connection);
        assertThat(connection.aborted).as("silent for the timeout since the look that heard the frame").isTrue();
    }

    @Test
    void anUntimedReadThatKeepsHearingHeartbeatsIsNeverEnded() {
        Recorded connection = recorded(HB);
        BlockingKeeper keeper = connection.keeper;
        // The reading thread reads a heartbeat every interval: each is the end of one untimed read
        // and the start of the next.
        for (int i = 0; i < 50; i++) {
            keeper.reading();
            now[0] += HB.intervalNanos();
            look(connection);
            keeper.received(FrameDecoder.HEADER_BYTES);
            keeper.readDone();
        }
        assertThat(connection.aborted).isFalse();
        assertThat(keeper.silent()).isFalse();
    }

    @Test
    void aSendTimeoutEndsAWriteAtTheFirstLookPastItEvenWhileThePeerSends() {
        Recorded connection = recorded(HB);
        BlockingKeeper keeper = connection.keeper;
        keeper.sendTimeout(300 * MS);
        keeper.writing();
        long started = now[0];
        while (!connection.aborted) {
            connection.unread += FrameDecoder.HEADER_BYTES; // heartbeats keep coming: a live peer that does not read
            long pause = look(connection);
            if (connection.aborted) {
                break;
            }
            assertThat(now[0] - started).isLessThan(300 * MS);
            now[0] += pause;
        }
        assertThat(now[0] - started).isBetween(300 * MS, 300 * MS + 300 * MS / 4);
        assertThat(keeper.timedOut()).isTrue();
        assertThat(keeper.frozen()).isFalse();
    }

    @Test
    void whatThePeerSentIsKnownFromTheLastLookWithoutAskingTheSocketAgain() {
        Recorded connection = recorded(HB);
        BlockingKeeper keeper = connection.keeper;
        connection.unread = 1; // a slowloris's byte, not read yet
        assertThat(keeper.heard()).as("before any look").isZero();
        look(connection);
        assertThat(keeper.heard()).isEqualTo(1);
        connection.unread = 0;
        keeper.received(1); // read now: the sum does not change
        connection.unread = 5;
        assertThat(keeper.heard()).as("not asked again until the next look").isEqualTo(1);
        now[0] += HB.intervalNanos();
        look(connection);
        assertThat(keeper.heard()).isEqualTo(6);
    }

    @Test
    void withHeartbeatsOffTheKeeperHasNoDutyAndEndsNothing() {
        Recorded connection = recorded(Heartbeat.OFF);
        BlockingKeeper keeper = connection.keeper;
        keeper.reading();
        keeper.writing();
        now[0] += TimeUnit.DAYS.toNanos(1);
        assertThat(look(connection)).isEqualTo(Long.MAX_VALUE);
        assertThat(connection.aborted).isFalse();
        assertThat(connection.heartbeats).isZero();
    }
}
