package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LazyDeadline}: a deadline set and met once per request schedules no timer per request, yet
 * never expires early (a timer armed for an earlier request re-arms) nor late (a shorter deadline
 * replaces a timer armed for later).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LazyDeadlineTest {
    private final EventLoop loop = new DefaultEventLoop();
    private final AtomicInteger expiries = new AtomicInteger();
    private final AtomicLong expiredAt = new AtomicLong();
    private final CountDownLatch expired = new CountDownLatch(1);
    private final LazyDeadline deadline = new LazyDeadline(loop, () -> {
        expiries.incrementAndGet();
        expiredAt.set(System.nanoTime());
        expired.countDown();
    });

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private <T> T onLoop(Callable<T> work) throws Exception {
        return loop.submit(work).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aThousandRequestsAnsweredInTimeScheduleOneTimer() throws Exception {
        int timers = onLoop(() -> {
            for (int i = 0; i < 1000; i++) {
                deadline.set(TimeUnit.SECONDS.toNanos(20));
                deadline.clear();
            }
            return deadline.timersScheduled();
        });
        assertThat(timers).isEqualTo(1);
        assertThat(expiries).hasValue(0);
    }

    @Test
    void anUnmetDeadlineExpiresOnceAndNotBeforeItsTime() throws Exception {
        long start = System.nanoTime();
        onLoop(() -> {
            deadline.set(TimeUnit.MILLISECONDS.toNanos(200));
            return null;
        });
        assertThat(expired.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(expiredAt.get() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        assertThat(onLoop(deadline::isSet)).isFalse();
        assertThat(expiries).hasValue(1);
    }

    @Test
    void aTimerArmedForAnEarlierRequestReArmsInsteadOfExpiringTheNextOneEarly() throws Exception {
        onLoop(() -> {
            deadline.set(TimeUnit.MILLISECONDS.toNanos(100)); // arms a timer for +100 ms
            deadline.clear();
            return null;
        });
        long secondSet = onLoop(() -> {
            long now = System.nanoTime();
            deadline.set(TimeUnit.MILLISECONDS.toNanos(400)); // the armed timer fires first: it must re-arm
            return now;
        });
        assertThat(expired.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(expiredAt.get() - secondSet).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
        assertThat(expiries).hasValue(1);
        assertThat(onLoop(deadline::timersScheduled)).isEqualTo(2);
    }

    @Test
    void aShorterDeadlineReplacesATimerArmedForLater() throws Exception {
        long start = System.nanoTime();
        onLoop(() -> {
            deadline.set(TimeUnit.MINUTES.toNanos(10));
            deadline.clear();
            deadline.set(TimeUnit.MILLISECONDS.toNanos(100));
            return null;
        });
        assertThat(expired.await(10, TimeUnit.SECONDS)).as("expired long before the 10 minutes").isTrue();
        assertThat(expiredAt.get() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Test
    void aCancelledDeadlineNeverExpires() throws Exception {
        onLoop(() -> {
            deadline.set(TimeUnit.MILLISECONDS.toNanos(50));
            return null;
        });
        deadline.cancel(); // from off the loop, as a closing owner does
        // A later deadline on the same loop expires: everything scheduled before it has run by then.
        CountDownLatch later = new CountDownLatch(1);
        LazyDeadline probe = new LazyDeadline(loop, later::countDown);
        onLoop(() -> {
            probe.set(TimeUnit.MILLISECONDS.toNanos(150));
            return null;
        });
        assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(expiries).hasValue(0);
    }
}
