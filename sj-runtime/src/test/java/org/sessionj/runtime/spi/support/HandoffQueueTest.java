package org.sessionj.runtime.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HandoffQueueTest {
    private static final long FOREVER = -1;

    /** Records what it released; its exceptions say which end they report. */
    static class RecordingQueue extends HandoffQueue<Integer> {
        final ConcurrentLinkedQueue<Integer> released = new ConcurrentLinkedQueue<>();

        RecordingQueue(int spins) {
            this(new SpinThenPark(spins));
        }

        RecordingQueue(SpinThenPark idle) {
            super(idle);
        }

        RecordingQueue(SpinThenPark idle, boolean needsRelease) {
            super(idle, needsRelease);
        }

        @Override
        protected void release(Integer element) {
            released.add(element);
        }

        @Override
        protected IOException closedException() {
            return new IOException("closed here");
        }

        @Override
        protected IOException endedException() {
            return new IOException("ended by the producer");
        }

        @Override
        protected InterruptedIOException interruptedException() {
            return new InterruptedIOException("interrupted while taking");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1000})
    void deliversEveryElementInOrderAcrossThreads(int spins) throws Exception {
        RecordingQueue queue = new RecordingQueue(spins);
        int count = 100_000;
        Thread producer = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < count; i++) {
                assertThat(queue.offer(i)).isTrue();
            }
            queue.end();
        });
        for (int i = 0; i < count; i++) {
            assertThat(queue.take(FOREVER)).isEqualTo(i);
        }
        assertThatThrownBy(() -> queue.take(FOREVER)).hasMessage("ended by the producer");
        producer.join();
        assertThat(queue.released).isEmpty();
    }

    @Test
    void takeReturnsNullWhenTheTimeoutPassesAndTheElementAfterwards() throws IOException {
        RecordingQueue queue = new RecordingQueue(10);
        assertThat(queue.take(0)).isNull();
        assertThat(queue.take(TimeUnit.MILLISECONDS.toNanos(5))).isNull();
        queue.offer(1);
        assertThat(queue.take(0)).isEqualTo(1);
        assertThat(queue.take(TimeUnit.MILLISECONDS.toNanos(5))).isNull();
        // A timeout is not an end.
        queue.offer(2);
        assertThat(queue.take(FOREVER)).isEqualTo(2);
    }

    @Test
    void theEndComesAfterEveryQueuedElementAndStays() throws IOException {
        RecordingQueue queue = new RecordingQueue(0);
        queue.offer(1);
        queue.offer(2);
        queue.end();
        assertThat(queue.isEnded()).isTrue();
        assertThat(queue.offer(3)).as("offer after the producer's end").isFalse();
        assertThat(queue.take(FOREVER)).isEqualTo(1);
        assertThat(queue.enterConsumer()).isTrue();
        assertThat(queue.isEndReached()).isFalse();
        assertThat(queue.peek()).isEqualTo(2);
        assertThat(queue.poll()).isEqualTo(2);
        assertThat(queue.isEndReached()).isTrue();
        queue.exitConsumer();
        assertThatThrownBy(() -> queue.take(FOREVER)).hasMessage("ended by the producer");
        assertThatThrownBy(() -> queue.take(0)).hasMessage("ended by the producer");
        assertThat(queue.released).isEmpty();
    }

    @Test
    void theEndWakesAParkedConsumer() throws Exception {
        RecordingQueue queue = new RecordingQueue(0);
        Running<Integer> consumer = start(Thread.ofVirtual(), () -> queue.take(FOREVER));
        awaitParked(consumer, queue);
        queue.end();
        assertThat(consumer.failure()).isInstanceOf(IOException.class).hasMessage("ended by the producer");
    }

    @Test
    void anElementWakesAParkedConsumer() throws Exception {
        RecordingQueue queue = new RecordingQueue(0);
        Running<Integer> consumer = start(Thread.ofVirtual(), () -> queue.take(FOREVER));
        awaitParked(consumer, queue);
        queue.offer(7);
        assertThat(consumer.result().get()).isEqualTo(7);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1000})
    void closeWakesAParkedConsumerWhichFailsAtOnce(int spins) throws Exception {
        RecordingQueue queue = new RecordingQueue(spins);
        Running<Integer> consumer = start(Thread.ofPlatform(), () -> queue.take(FOREVER));
        awaitParked(consumer, queue);
        queue.close();
        assertThat(consumer.failure()).isInstanceOf(IOException.class).hasMessage("closed here");
        assertThat(queue.isClosed()).isTrue();
        assertThatThrownBy(() -> queue.take(0)).hasMessage("closed here");
        assertThat(queue.enterConsumer()).isFalse();
    }

    @Test
    void closeReleasesQueuedElementsAndRefusesLaterOffers() {
        RecordingQueue queue = new RecordingQueue(0);
        queue.offer(1);
        queue.offer(2);
        queue.offer(3);
        queue.close();
        assertThat(queue.released).containsExactly(1, 2, 3);
        assertThat(queue.offer(4)).as("offer after close: the caller keeps the element").isFalse();
        queue.close();
        assertThat(queue.released).containsExactly(1, 2, 3);
    }

    @Test
    void closeIsSeenBeforeQueuedElements() {
        RecordingQueue queue = new RecordingQueue(0);
        queue.offer(1);
        queue.end();
        queue.close();
        assertThatThrownBy(() -> queue.take(FOREVER)).hasMessage("closed here");
        assertThat(queue.released).containsExactly(1);
    }

    @Test
    void closeDuringAConsumerOperationLeavesTheReleaseToItsExit() {
        RecordingQueue queue = new RecordingQueue(0);
        queue.offer(1);
        queue.offer(2);
        assertThat(queue.enterConsumer()).isTrue();
        queue.close();
        assertThat(queue.released).as("nothing released while the consumer is inside").isEmpty();
        assertThat(queue.poll()).isEqualTo(1);
        queue.exitConsumer();
        assertThat(queue.released).containsExactly(2);
    }

    @Test
    void anOfferRacingAClosedConsumerOperationIsReleasedByIt() {
        RecordingQueue queue = new RecordingQueue(0);
        assertThat(queue.enterConsumer()).isTrue();
        queue.close();
        assertThat(queue.offer(5)).as("the close is not seen before the offer").isFalse();
        queue.exitConsumer();
        assertThat(queue.released).isEmpty();
    }

    @Test
    void oneConsumerOperationAtATime() {
        RecordingQueue queue = new RecordingQueue(0);
        assertThat(queue.enterConsumer()).isTrue();
        assertThat(queue.enterConsumer()).isFalse();
        queue.exitConsumer();
        assertThat(queue.enterConsumer()).isTrue();
        queue.exitConsumer();
    }

    @Test
    void aQueueWhoseElementsNeedNoReleaseReleasesNothingOnCloseAndDoesNotGuardItsConsumer() {
        RecordingQueue queue = new RecordingQueue(new SpinThenPark(0), false);
        queue.offer(1);
        queue.offer(2);
        assertThat(queue.enterConsumer()).isTrue();
        assertThat(queue.enterConsumer()).as("not guarded: the owner keeps to one consumer").isTrue();
        assertThat(queue.poll()).isEqualTo(1);
        queue.exitConsumer();
        queue.exitConsumer();
        queue.close();
        assertThat(queue.released).as("left to the garbage collector").isEmpty();
        assertThat(queue.enterConsumer()).as("closed").isFalse();
        assertThat(queue.offer(3)).as("offer after close: the caller keeps the element").isFalse();
        assertThatThrownBy(() -> queue.take(FOREVER)).hasMessage("closed here");
        assertThat(queue.released).isEmpty();
    }

    @Test
    void aCloseWakesAParkedConsumerOfAQueueWhoseElementsNeedNoRelease() throws Exception {
        RecordingQueue queue = new RecordingQueue(SpinThenPark.PARK_AT_ONCE, false);
        Running<Integer> consumer = start(Thread.ofPlatform(), () -> queue.take(FOREVER));
        awaitParked(consumer, queue);
        queue.close();
        assertThat(consumer.failure()).isInstanceOf(IOException.class).hasMessage("closed here");
    }

    @Test
    void everyElementArrivesInOrderThroughAQueueWhoseElementsNeedNoRelease() throws Exception {
        RecordingQueue queue = new RecordingQueue(new SpinThenPark(0, 2), false);
        int count = 100_000;
        Thread producer = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < count; i++) {
                assertThat(queue.offer(i)).isTrue();
            }
            queue.end();
        });
        for (int i = 0; i < count; i++) {
            assertThat(queue.take(FOREVER)).isEqualTo(i);
        }
        assertThatThrownBy(() -> queue.take(FOREVER)).hasMessage("ended by the producer");
        producer.join();
    }

    @Test
    void hasQueuedLooksPastOtherElementsAcrossGrownArraysWithoutTakingThem() {
        HandoffQueue<Object> queue = new HandoffQueue<>(new SpinThenPark(0), false) {
            @Override
            protected void release(Object element) {
            }

            @Override
            protected IOException closedException() {
                return new IOException("closed");
            }

            @Override
            protected IOException endedException() {
                return new IOException("ended");
            }

            @Override
            protected InterruptedIOException interruptedException() {
                return new InterruptedIOException("interrupted");
            }
        };
        assertThat(queue.hasQueued(Integer.class)).as("nothing queued yet").isFalse();
        for (int i = 0; i < 40; i++) {
            queue.offer("s" + i); // grows the queue through several arrays
        }
        assertThat(queue.hasQueued(Integer.class)).isFalse();
        queue.offer(7);
        assertThat(queue.hasQueued(Integer.class)).isTrue();
        assertThat(queue.poll()).as("nothing was taken").isEqualTo("s0");
        for (int i = 1; i < 40; i++) {
            assertThat(queue.poll()).isEqualTo("s" + i);
        }
        assertThat(queue.hasQueued(Integer.class)).isTrue();
        assertThat(queue.poll()).isEqualTo(7);
        assertThat(queue.hasQueued(Integer.class)).isFalse();
    }

    /** Producer, consumer and a closer race; every element is consumed, released or refused, exactly once. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCloseRacingProducerAndConsumerAccountsForEveryElementOnce() throws Exception {
        for (int round = 0; round < 300; round++) {
            race(round, true);
        }
    }

    /** Without a consumer to drain as it leaves, an offer racing the close must release what it left. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCloseRacingTheProducerAloneAccountsForEveryElementOnce() throws Exception {
        for (int round = 0; round < 1000; round++) {
            race(round, false);
        }
    }

    private static void race(int round, boolean withConsumer) throws InterruptedException {
        RecordingQueue queue = new RecordingQueue(round % 2 == 0 ? 0 : 50);
        int count = 2_000;
        int closeAfter = ThreadLocalRandom.current().nextInt(count);
        CyclicBarrier start = new CyclicBarrier(withConsumer ? 3 : 2);
        List<Integer> consumed = new ArrayList<>();
        List<Integer> refused = new ArrayList<>();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        AtomicInteger offered = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        threads.add(Thread.ofPlatform().start(() -> {
            await(start);
            for (int i = 0; i < count; i++) {
                if (!queue.offer(i)) {
                    refused.add(i);
                }
                offered.lazySet(i + 1);
            }
        }));
        if (withConsumer) {
            threads.add(Thread.ofPlatform().start(() -> {
                await(start);
                try {
                    while (true) {
                        consumed.add(queue.take(FOREVER));
                    }
                } catch (IOException e) {
                    if (!e.getMessage().equals("closed here")) {
                        unexpected.set(e);
                    }
                }
            }));
        }
        threads.add(Thread.ofPlatform().start(() -> {
            await(start);
            while (offered.get() < closeAfter) {
                Thread.onSpinWait();
            }
            queue.close();
        }));
        for (Thread t : threads) {
            t.join();
        }
        assertThat(unexpected.get()).isNull();
        List<Integer> all = new ArrayList<>(consumed);
        all.addAll(queue.released);
        all.addAll(refused);
        assertThat(all).as("round %d: consumed %d, released %d, refused %d", round, consumed.size(),
                queue.released.size(), refused.size()).hasSize(count);
        assertThat(new HashSet<>(all)).hasSize(count);
        assertThat(consumed).isSorted();
    }

    @Test
    void anInterruptedConsumerFailsAndKeepsItsInterruptStatus() throws Exception {
        RecordingQueue queue = new RecordingQueue(0);
        CompletableFuture<Boolean> stillInterrupted = new CompletableFuture<>();
        Running<Integer> consumer = start(Thread.ofVirtual(), () -> {
            try {
                return queue.take(FOREVER);
            } finally {
                stillInterrupted.complete(Thread.currentThread().isInterrupted());
            }
        });
        awaitParked(consumer, queue);
        consumer.thread().interrupt();
        assertThat(consumer.failure()).isInstanceOf(InterruptedIOException.class).hasMessage("interrupted while taking");
        assertThat(stillInterrupted.get()).isTrue();
    }

    @Test
    void anAlreadyInterruptedConsumerFailsInsteadOfWaiting() throws Exception {
        RecordingQueue queue = new RecordingQueue(0);
        Running<Integer> consumer = start(Thread.ofPlatform(), () -> {
            Thread.currentThread().interrupt();
            return queue.take(TimeUnit.SECONDS.toNanos(30));
        });
        assertThat(consumer.failure()).isInstanceOf(InterruptedIOException.class);
    }

    @Test
    void theWakeListenerRunsOnEveryOfferTheEndAndTheClose() {
        RecordingQueue queue = new RecordingQueue(0);
        Set<Thread> threads = new HashSet<>();
        AtomicInteger wakes = new AtomicInteger();
        queue.wakeListener(() -> {
            wakes.incrementAndGet();
            threads.add(Thread.currentThread());
        });
        queue.offer(1);
        queue.offer(2);
        assertThat(wakes).hasValue(2);
        queue.end();
        assertThat(wakes).hasValue(3);
        queue.close();
        assertThat(wakes).hasValue(4);
        assertThat(threads).containsExactly(Thread.currentThread());
    }

    @Test
    void aConsumerThatSpinsAndYieldsGetsEveryElementAndStillWakesForTheEndAndTheClose() throws Exception {
        RecordingQueue queue = new RecordingQueue(new SpinThenPark(5, 50));
        int count = 20_000;
        Thread producer = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < count; i++) {
                assertThat(queue.offer(i)).isTrue();
            }
            queue.end();
        });
        for (int i = 0; i < count; i++) {
            assertThat(queue.take(FOREVER)).isEqualTo(i);
        }
        assertThatThrownBy(() -> queue.take(FOREVER)).hasMessage("ended by the producer");
        producer.join();
        // A consumer past its yields parks; a close from another thread wakes it.
        RecordingQueue idle = new RecordingQueue(new SpinThenPark(0, 3));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread consumer = Thread.ofPlatform().start(() -> {
            try {
                idle.take(FOREVER);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        while (consumer.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        idle.close();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).hasMessage("closed here");
    }

    /** Counts the waits its consumer announces, that is, how often it parks. */
    static final class ParkCountingQueue extends RecordingQueue {
        final AtomicInteger parkings = new AtomicInteger();

        ParkCountingQueue(SpinThenPark idle) {
            super(idle);
        }

        @Override
        protected void parking() {
            parkings.incrementAndGet();
        }
    }

    @Test
    void aTimedWaitOnAVirtualThreadYieldsUntilItsDeadlineInsteadOfParking() throws Exception {
        // Yields without end: only the deadline stops them. Before, a timed wait never yielded and
        // parked at once, which on a virtual thread schedules and cancels a timer task per wait.
        ParkCountingQueue queue = new ParkCountingQueue(new SpinThenPark(0, Integer.MAX_VALUE));
        long timeout = TimeUnit.MILLISECONDS.toNanos(20);
        Running<Long> consumer = start(Thread.ofVirtual(), () -> {
            long start = System.nanoTime();
            assertThat(queue.take(timeout)).isNull();
            return System.nanoTime() - start;
        });
        assertThat(consumer.result().get(10, TimeUnit.SECONDS)).as("time waited").isGreaterThanOrEqualTo(timeout);
        assertThat(queue.parkings).as("parks").hasValue(0);
        // The same wait on a platform thread parks after its spins: its yield could give away a time slice.
        Running<Long> platform = start(Thread.ofPlatform(), () -> {
            long start = System.nanoTime();
            assertThat(queue.take(timeout)).isNull();
            return System.nanoTime() - start;
        });
        assertThat(platform.result().get(10, TimeUnit.SECONDS)).as("time waited").isGreaterThanOrEqualTo(timeout);
        assertThat(queue.parkings).as("parks").hasValue(1);
    }

    @Test
    void aTimedWaitOnAVirtualThreadGetsEveryElementAndStillSeesTheEndAndTheClose() throws Exception {
        ParkCountingQueue queue = new ParkCountingQueue(new SpinThenPark(0, 20));
        int count = 20_000;
        long timeout = TimeUnit.SECONDS.toNanos(30);
        Thread producer = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < count; i++) {
                assertThat(queue.offer(i)).isTrue();
            }
            queue.end();
        });
        Running<Integer> consumer = start(Thread.ofVirtual(), () -> {
            for (int i = 0; i < count; i++) {
                assertThat(queue.take(timeout)).isEqualTo(i);
            }
            return count;
        });
        assertThat(consumer.result().get(30, TimeUnit.SECONDS)).isEqualTo(count);
        producer.join();
        Running<Integer> atTheEnd = start(Thread.ofVirtual(), () -> queue.take(timeout));
        assertThat(atTheEnd.failure()).hasMessage("ended by the producer");
        // A close ends a timed wait that is yielding (yields without end) at once.
        ParkCountingQueue yielding = new ParkCountingQueue(new SpinThenPark(0, Integer.MAX_VALUE));
        Running<Integer> closed = start(Thread.ofVirtual(), () -> yielding.take(timeout));
        yielding.close();
        assertThat(closed.failure()).hasMessage("closed here");
    }

    @Test
    void aZeroTimeoutLooksOnceWithoutAnnouncingAWait() throws IOException {
        ParkCountingQueue queue = new ParkCountingQueue(new SpinThenPark(0, 20));
        assertThat(queue.take(0)).isNull();
        queue.offer(1);
        assertThat(queue.take(0)).isEqualTo(1);
        assertThat(queue.parkings).hasValue(0);
        queue.end();
        assertThatThrownBy(() -> queue.take(0)).hasMessage("ended by the producer");
        ParkCountingQueue closed = new ParkCountingQueue(new SpinThenPark(0, 20));
        closed.close();
        assertThatThrownBy(() -> closed.await(0)).hasMessage("closed here");
    }

    @Test
    void spinThenParkRejectsANegativeYieldCountAndReadsItsYieldSetting() {
        assertThatThrownBy(() -> new SpinThenPark(1, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("yields must be a non-negative number of polls, found -1");
        String property = "sessionj.test.handoff.yields";
        assertThat(new SpinThenPark(7).withYieldsFromSetting("test.handoff.yields", 4)).isEqualTo(new SpinThenPark(7, 4));
        System.setProperty(property, "9");
        try {
            assertThat(new SpinThenPark(7).withYieldsFromSetting("test.handoff.yields", 4))
                    .isEqualTo(new SpinThenPark(7, 9));
            System.setProperty(property, "-1");
            assertThatThrownBy(() -> new SpinThenPark(7).withYieldsFromSetting("test.handoff.yields", 4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("system property " + property
                            + " must be a non-negative number of yields before parking, found '-1'");
        } finally {
            System.clearProperty(property);
        }
    }

    @Test
    void spinThenParkRejectsANegativeSpinCount() {
        assertThatThrownBy(() -> new SpinThenPark(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spins must be a non-negative number of polls, found -1");
    }

    @Test
    void spinThenParkReadsItsSystemProperty() {
        String property = "sessionj.test.handoff.spins";
        assertThat(SpinThenPark.fromSetting("test.handoff.spins", 17)).isEqualTo(new SpinThenPark(17));
        System.setProperty(property, "3");
        try {
            assertThat(SpinThenPark.fromSetting("test.handoff.spins", 17)).isEqualTo(new SpinThenPark(3));
            System.setProperty(property, "-2");
            assertThatThrownBy(() -> SpinThenPark.fromSetting("test.handoff.spins", 17))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("system property " + property
                            + " must be a non-negative number of polls before parking, found '-2'");
        } finally {
            System.clearProperty(property);
        }
    }

    interface Body<T> {
        T run() throws Exception;
    }

    /** A thread running a body, and what the body returns or throws. */
    record Running<T>(Thread thread, CompletableFuture<T> result) {
        /** What the body threw; fails if it returned. */
        Throwable failure() throws InterruptedException {
            try {
                T value = result.get();
                throw new AssertionError("returned " + value + " instead of failing");
            } catch (ExecutionException e) {
                return e.getCause();
            }
        }
    }

    private static <T> Running<T> start(Thread.Builder builder, Body<T> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = builder.start(() -> {
            try {
                result.complete(body.run());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return new Running<>(thread, result);
    }

    /** Waits until {@code running} has given up spinning and parks (or is about to park) on {@code queue}. */
    private static void awaitParked(Running<?> running, HandoffQueue<?> queue) {
        while (LockSupport.getBlocker(running.thread()) != queue) {
            if (running.result().isDone()) {
                throw new AssertionError("the consumer returned without parking: " + running.result());
            }
            Thread.onSpinWait();
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
