package org.sessionj.runtime.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.OwnerWatch;

/**
 * adv18 A13: a transport's timer tells a session that its thread ended only when two looks in a row saw the same
 * thread ended with no action under way; a live thread, or a new owner between the looks, is never reported.
 */
class OwnerLookTest {
    /** A watch whose owner the test sets, recording what it is told. */
    private static final class Recorded implements OwnerWatch {
        Thread owner;
        final List<Thread> ended = new ArrayList<>();

        @Override
        public Thread idleOwner() {
            return owner;
        }

        @Override
        public void ownerEnded(Thread thread) {
            ended.add(thread);
        }
    }

    private static Thread ended() throws InterruptedException {
        Thread t = Thread.ofPlatform().name("ended").start(() -> { });
        t.join();
        return t;
    }

    @Test
    void aThreadSeenEndedAtTwoLooksInARowIsReportedOnce() throws Exception {
        Recorded watch = new Recorded();
        watch.owner = ended();
        Thread seen = OwnerLook.look(watch, null);
        assertThat(seen).isSameAs(watch.owner);
        assertThat(watch.ended).isEmpty();
        assertThat(OwnerLook.look(watch, seen)).isNull();
        assertThat(watch.ended).containsExactly(watch.owner);
    }

    @Test
    void aLiveOwnerOrNoneOrNoWatchIsNeverReported() {
        Recorded watch = new Recorded();
        watch.owner = Thread.currentThread();
        assertThat(OwnerLook.look(watch, null)).isNull();
        assertThat(OwnerLook.look(watch, Thread.currentThread())).isNull();
        watch.owner = null; // an action under way, or the session ended or moved
        assertThat(OwnerLook.look(watch, null)).isNull();
        assertThat(OwnerLook.look(null, null)).isNull();
        assertThat(watch.ended).isEmpty();
    }

    @Test
    void aNewOwnerBetweenTheLooksStartsTheGraceAgain() throws Exception {
        Recorded watch = new Recorded();
        watch.owner = ended();
        Thread first = OwnerLook.look(watch, null);
        watch.owner = ended(); // another thread took the session, acted and ended too
        Thread second = OwnerLook.look(watch, first);
        assertThat(second).isSameAs(watch.owner);
        assertThat(watch.ended).isEmpty();
        watch.owner = Thread.currentThread(); // and a live one took it
        assertThat(OwnerLook.look(watch, second)).isNull();
        assertThat(watch.ended).isEmpty();
    }
}
