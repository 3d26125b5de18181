package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.types.SessionTypes;

/**
 * Batched output and the thread's pending list: a batch that stays after an action is registered, so
 * that the thread's next blocking receive (on any session) sends it first; a send that is flushed by
 * the action itself (the next state waits for the peer) never registers, so the thread gets no
 * thread-local list for it.
 */
class PendingOutputsTest {
    private static SessionSocket socket(SinkConnection sink, String protocol) {
        return new SessionSocket(sink, StateMachine.compile(SessionTypes.parse(protocol), PendingOutputsTest.class.getClassLoader()),
                new SessionSettings(true, 64 * 1024, -1), protocol);
    }

    @Test
    void aSendFollowedByAReceiveGoesOutAtOnceAndIsNotRegistered() {
        SinkConnection sink = new SinkConnection();
        SessionSocket s = socket(sink, "!<int>.?(int)");
        s.send(1);
        assertThat(sink.framesWritten).isEqualTo(1);
        assertThat(s.output.isRegisteredWithThread()).isFalse();
    }

    @Test
    void aBatchThatStaysIsRegisteredAndFlushedBeforeTheThreadBlocksOnAnotherSession() {
        SinkConnection batching = new SinkConnection();
        SessionSocket a = socket(batching, "!<int>.!<int>");
        a.send(1);
        assertThat(batching.framesWritten).as("batched").isZero();
        assertThat(a.output.isRegisteredWithThread()).isTrue();

        // Another session of the same thread receives: the first session's batch goes out first, so
        // that a peer waiting for it cannot deadlock the two.
        SinkConnection receiving = new SinkConnection();
        receiving.toRead.add(Unpooled.buffer().writeByte(org.sessionj.runtime.internal.wire.Tags.INT).writeInt(7));
        SessionSocket b = socket(receiving, "?(int)");
        assertThat(b.receiveInt()).isEqualTo(7);
        assertThat(batching.framesWritten).as("flushed before the receive").isEqualTo(1);
        assertThat(a.output.isRegisteredWithThread()).isFalse();

        a.send(2);
        assertThat(batching.framesWritten).as("the end flushes").isEqualTo(2);
    }

    @Test
    void aBatchRegisteredByOneThreadIsNotOnAnotherThreadsList() throws Exception {
        SinkConnection sink = new SinkConnection();
        SessionSocket a = socket(sink, "!<int>.!<int>.!<int>");
        a.send(1);
        boolean[] seen = new boolean[1];
        Thread other = Thread.ofPlatform().start(() -> seen[0] = a.output.isRegisteredWithThread());
        other.join();
        assertThat(seen[0]).isFalse();
        assertThat(a.output.isRegisteredWithThread()).isTrue();
    }

    /** Runs {@code body} on a thread of its own: a thread's mark would otherwise carry over between tests. */
    private static void onFreshThread(ThrowingBody body) throws Exception {
        Throwable[] failure = new Throwable[1];
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        t.join();
        if (failure[0] instanceof Exception e) {
            throw e;
        }
        if (failure[0] instanceof Error e) {
            throw e;
        }
    }

    private interface ThrowingBody {
        void run() throws Exception;
    }

    @Test
    void aThreadThatBatchesInEveryRoundKeepsItsMarkAcrossFlushesAndEveryBatchStillGoesOut() throws Exception {
        onFreshThread(() -> {
            SinkConnection sink = new SinkConnection();
            SessionSocket a = socket(sink, "!<int>.!<int>.!<int>.!<int>.!<int>");
            assertThat(PendingOutputs.isMarked()).as("no mark before any batch").isFalse();
            for (int round = 1; round <= 3; round++) {
                a.send(round);
                assertThat(a.output.isRegisteredWithThread()).isTrue();
                assertThat(PendingOutputs.isMarked()).isTrue();
                PendingOutputs.flushAll();
                assertThat(sink.framesWritten).as("round %d's batch flushed before the thread blocks", round).isEqualTo(round);
                assertThat(a.output.isRegisteredWithThread()).isFalse();
                // Kept: the next round's registration then costs no atomic instruction on the stripe's count.
                assertThat(PendingOutputs.isMarked()).as("the mark outlives the flush").isTrue();
            }
        });
    }

    @Test
    void aThreadGivesItsMarkBackAfterIdleFlushesInARow() throws Exception {
        onFreshThread(() -> {
            SinkConnection sink = new SinkConnection();
            SessionSocket a = socket(sink, "!<int>.!<int>.!<int>");
            a.send(1);
            PendingOutputs.flushAll();
            for (int i = 1; i < PendingOutputs.IDLE_FLUSHES; i++) {
                PendingOutputs.flushAll();
            }
            assertThat(PendingOutputs.isMarked()).as("%d idle flushes", PendingOutputs.IDLE_FLUSHES - 1).isTrue();
            PendingOutputs.flushAll();
            assertThat(PendingOutputs.isMarked()).as("%d idle flushes", PendingOutputs.IDLE_FLUSHES).isFalse();

            // A batch after that takes the mark again, and is flushed again.
            a.send(2);
            assertThat(PendingOutputs.isMarked()).isTrue();
            PendingOutputs.flushAll();
            assertThat(sink.framesWritten).isEqualTo(2);
        });
    }

    @Test
    void closingASocketGivesTheMarkBackOnlyOnceTheThreadHoldsNoOtherBatch() throws Exception {
        onFreshThread(() -> {
            SinkConnection first = new SinkConnection();
            SinkConnection second = new SinkConnection();
            SessionSocket a = socket(first, "!<int>.!<int>.!<int>");
            SessionSocket b = socket(second, "!<int>.!<int>");
            b.send(1);
            PendingOutputs.flushAll();
            a.send(1);
            b.send(2);
            b.close();
            assertThat(PendingOutputs.isMarked()).as("a's batch is still held").isTrue();
            PendingOutputs.flushAll();
            assertThat(first.framesWritten).as("a's batch flushed").isEqualTo(1);

            a.send(2);
            a.send(3);
            assertThat(first.framesWritten).as("the end flushes").isEqualTo(2);
            a.close();
            assertThat(PendingOutputs.isMarked()).as("no batch left: the close gives the mark back").isFalse();
        });
    }
}
