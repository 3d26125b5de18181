package org.sessionj.runtime.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GrowingSpscQueueTest {

    @Test
    void anEmptyQueueHasNothingToPollOrPeek() {
        GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>();
        assertThat(q.dequeue()).isNull();
        assertThat(q.head()).isNull();
        assertThat(q.isQueueEmpty()).isTrue();
    }

    @Test
    void oneAtATimeNeverGrowsAndKeepsOrder() {
        GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>();
        for (int i = 0; i < 10_000; i++) {
            q.enqueue(i);
            assertThat(q.isQueueEmpty()).isFalse();
            assertThat(q.head()).isEqualTo(i);
            assertThat(q.dequeue()).isEqualTo(i);
            assertThat(q.isQueueEmpty()).isTrue();
        }
    }

    /** A backlog of n crosses every growth step (2, 4, … 1024 slots) and then chains arrays of the largest size. */
    @Test
    void aBacklogGrowsTheQueueAndComesOutInOrder() {
        for (int n : new int[] {1, 2, 3, 5, 17, 1023, 1024, 1025, 5000}) {
            GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>();
            for (int i = 0; i < n; i++) {
                q.enqueue(i);
            }
            List<Integer> out = new ArrayList<>();
            Integer e;
            while ((e = q.head()) != null) {
                assertThat(q.dequeue()).isSameAs(e);
                out.add(e);
            }
            assertThat(out).as("backlog of %d", n).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(out.get(i)).isEqualTo(i);
            }
            assertThat(q.isQueueEmpty()).isTrue();
        }
    }

    /** Interleaved bursts: the consumer finds the jump to a new array while the producer has moved on. */
    @Test
    void interleavedBurstsKeepOrderAcrossJumps() {
        GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>();
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 2000; round++) {
            int burst = (round * 7) % 37;
            for (int i = 0; i < burst; i++) {
                q.enqueue(next++);
            }
            int take = (round * 11) % 41;
            for (int i = 0; i < take; i++) {
                Integer e = q.dequeue();
                if (e == null) {
                    break;
                }
                assertThat(e).isEqualTo(expected++);
            }
        }
        Integer e;
        while ((e = q.dequeue()) != null) {
            assertThat(e).isEqualTo(expected++);
        }
        assertThat(expected).isEqualTo(next);
    }

    @Test
    void aProducerAndAConsumerThreadPassEveryElementOnceInOrder() throws Exception {
        GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>();
        int n = 2_000_000;
        CompletableFuture<Long> consumer = CompletableFuture.supplyAsync(() -> {
            long sum = 0;
            int expected = 0;
            while (expected < n) {
                Integer e = q.dequeue();
                if (e == null) {
                    Thread.onSpinWait();
                    continue;
                }
                if (e != expected) {
                    throw new AssertionError("expected " + expected + ", found " + e);
                }
                expected++;
                sum += e;
            }
            return sum;
        });
        for (int i = 0; i < n; i++) {
            q.enqueue(i);
            if ((i & 0xFFF) == 0) {
                Thread.yield(); // now and then the consumer catches up: full and nearly empty arrays both occur
            }
        }
        assertThat(consumer.get(25, TimeUnit.SECONDS)).isEqualTo((long) n * (n - 1) / 2);
        assertThat(q.isQueueEmpty()).isTrue();
    }

    /** The indices are ints: past Integer.MAX_VALUE and past 2^32 they wrap, across growth and jumps, in order. */
    @Test
    void theIndicesWrapWithoutLosingOrder() {
        for (int start : new int[] {Integer.MAX_VALUE - 3, -5, Integer.MIN_VALUE}) {
            GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>(start);
            int next = 0;
            int expected = 0;
            for (int round = 0; round < 300; round++) {
                for (int i = 0; i < round % 9; i++) {
                    q.enqueue(next++);
                }
                for (int i = 0; i < round % 7; i++) {
                    Integer e = q.dequeue();
                    if (e == null) {
                        assertThat(q.isQueueEmpty()).isTrue();
                        break;
                    }
                    assertThat(e).as("from %d", start).isEqualTo(expected++);
                }
            }
            Integer e;
            while ((e = q.dequeue()) != null) {
                assertThat(e).isEqualTo(expected++);
            }
            assertThat(expected).isEqualTo(next);
            assertThat(q.isQueueEmpty()).isTrue();
        }
    }

    /**
     * The first array is made by the first element and published to a consumer already polling: many
     * fresh queues, each with a consumer that polls before the producer's first element (bounded count).
     */
    @Test
    void aConsumerPollingAFreshQueueGetsItsFirstElement() throws Exception {
        for (int round = 0; round < 2_000; round++) {
            GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>();
            java.util.concurrent.CountDownLatch polling = new java.util.concurrent.CountDownLatch(1);
            int value = round;
            CompletableFuture<Integer> consumer = CompletableFuture.supplyAsync(() -> {
                assertThat(q.head()).isNull();
                polling.countDown();
                Integer e;
                while ((e = q.dequeue()) == null) {
                    Thread.onSpinWait();
                }
                return e;
            });
            polling.await();
            q.enqueue(value);
            assertThat(consumer.get(10, TimeUnit.SECONDS)).isEqualTo(value);
        }
    }
}
