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
        assertThat(q.poll()).isNull();
        assertThat(q.peek()).isNull();
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void oneAtATimeNeverGrowsAndKeepsOrder() {
        GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>();
        for (int i = 0; i < 10_000; i++) {
            q.offer(i);
            assertThat(q.isEmpty()).isFalse();
            assertThat(q.peek()).isEqualTo(i);
            assertThat(q.poll()).isEqualTo(i);
            assertThat(q.isEmpty()).isTrue();
        }
    }

    /** A backlog of n crosses every growth step (2, 4, … 1024 slots) and then chains arrays of the largest size. */
    @Test
    void aBacklogGrowsTheQueueAndComesOutInOrder() {
        for (int n : new int[] {1, 2, 3, 5, 17, 1023, 1024, 1025, 5000}) {
            GrowingSpscQueue<Integer> q = new GrowingSpscQueue<>();
            for (int i = 0; i < n; i++) {
                q.offer(i);
            }
            List<Integer> out = new ArrayList<>();
            Integer e;
            while ((e = q.peek()) != null) {
                assertThat(q.poll()).isSameAs(e);
                out.add(e);
            }
            assertThat(out).as("backlog of %d", n).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(out.get(i)).isEqualTo(i);
            }
            assertThat(q.isEmpty()).isTrue();
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
                q.offer(next++);
            }
            int take = (round * 11) % 41;
            for (int i = 0; i < take; i++) {
                Integer e = q.poll();
                if (e == null) {
                    break;
                }
                assertThat(e).isEqualTo(expected++);
            }
        }
        Integer e;
        while ((e = q.poll()) != null) {
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
                Integer e = q.poll();
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
            q.offer(i);
            if ((i & 0xFFF) == 0) {
                Thread.yield(); // now and then the consumer catches up: full and nearly empty arrays both occur
            }
        }
        assertThat(consumer.get(25, TimeUnit.SECONDS)).isEqualTo((long) n * (n - 1) / 2);
        assertThat(q.isEmpty()).isTrue();
    }
}
