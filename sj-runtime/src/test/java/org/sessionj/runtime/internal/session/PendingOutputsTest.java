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

    /** A thread whose stripe's slot another live thread holds keeps its batches on a list of its own, and flushes them. */
    @Test
    void aThreadSharingItsStripeWithAnotherBatchingThreadStillFlushesBeforeItBlocks() throws Exception {
        SinkConnection firstSink = new SinkConnection();
        SessionSocket first = socket(firstSink, "!<int>.!<int>");
        java.util.concurrent.CountDownLatch batched = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Thread holder = Thread.ofPlatform().start(() -> {
            first.send(1);
            batched.countDown();
            await(done);
        });
        batched.await();

        SinkConnection batchingSink = new SinkConnection();
        SessionSocket batching = socket(batchingSink, "!<int>.!<int>");
        SinkConnection receivingSink = new SinkConnection();
        receivingSink.toRead.add(Unpooled.buffer().writeByte(org.sessionj.runtime.internal.wire.Tags.INT).writeInt(7));
        SessionSocket receiving = socket(receivingSink, "?(int)");
        boolean[] holds = new boolean[1];
        int[] received = new int[1];
        Thread sameStripe = threadOfStripe(PendingOutputs.stripeOf(holder), () -> {
            batching.send(1);
            holds[0] = PendingOutputs.holdsSlot();
            received[0] = receiving.receiveInt();
        });
        sameStripe.start();
        sameStripe.join();
        assertThat(holds[0]).as("the live holder keeps the slot").isFalse();
        assertThat(received[0]).isEqualTo(7);
        assertThat(batchingSink.framesWritten).as("flushed before the receive").isEqualTo(1);
        assertThat(firstSink.framesWritten).as("the other thread's batch is its own").isZero();
        done.countDown();
        holder.join();
    }

    /** The slot of a thread that ended goes to the next batching thread of its stripe, which flushes through it. */
    @Test
    void theSlotOfAThreadThatEndedGoesToTheNextBatchingThreadOfItsStripe() throws Exception {
        SinkConnection firstSink = new SinkConnection();
        SessionSocket first = socket(firstSink, "!<int>.!<int>");
        boolean[] firstHeld = new boolean[1];
        Thread ended = Thread.ofPlatform().start(() -> {
            first.send(1); // batched, never flushed: the thread ends with it
            firstHeld[0] = PendingOutputs.holdsSlot();
        });
        ended.join();

        SinkConnection batchingSink = new SinkConnection();
        SessionSocket batching = socket(batchingSink, "!<int>.!<int>");
        SinkConnection receivingSink = new SinkConnection();
        receivingSink.toRead.add(Unpooled.buffer().writeByte(org.sessionj.runtime.internal.wire.Tags.INT).writeInt(7));
        SessionSocket receiving = socket(receivingSink, "?(int)");
        boolean[] holds = new boolean[1];
        Thread next = threadOfStripe(PendingOutputs.stripeOf(ended), () -> {
            batching.send(1);
            holds[0] = PendingOutputs.holdsSlot();
            receiving.receiveInt();
        });
        next.start();
        next.join();
        if (firstHeld[0]) {
            assertThat(holds[0]).as("taken over from the ended thread").isTrue();
        }
        assertThat(batchingSink.framesWritten).as("flushed before the receive").isEqualTo(1);
    }

    /**
     * More batching sessions than a thread's list starts with room for (it grows), one of them closed in
     * the middle of the list (taken off it, the others keep their order): the receive flushes every
     * other batch, once.
     */
    @Test
    void manyBatchesOfOneThreadAreFlushedOnceEachAndAClosedOneLeavesTheList() throws Exception {
        int n = 9;
        SinkConnection[] sinks = new SinkConnection[n];
        SessionSocket[] sockets = new SessionSocket[n];
        SinkConnection receivingSink = new SinkConnection();
        receivingSink.toRead.add(Unpooled.buffer().writeByte(org.sessionj.runtime.internal.wire.Tags.INT).writeInt(7));
        receivingSink.toRead.add(Unpooled.buffer().writeByte(org.sessionj.runtime.internal.wire.Tags.INT).writeInt(8));
        SessionSocket receiving = socket(receivingSink, "?(int).?(int)");
        int[] received = new int[2];
        boolean[] closedRegistered = new boolean[1];
        Thread t = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < n; i++) {
                sinks[i] = new SinkConnection();
                sockets[i] = socket(sinks[i], "!<int>.!<int>");
                sockets[i].send(i);
            }
            sockets[4].close(); // incomplete: fails, and leaves the thread's list
            closedRegistered[0] = sockets[4].output.isRegisteredWithThread();
            received[0] = receiving.receiveInt();
            received[1] = receiving.receiveInt(); // nothing batched any more: flushes nothing twice
        });
        t.join();
        assertThat(received).containsExactly(7, 8);
        assertThat(closedRegistered[0]).isFalse();
        for (int i = 0; i < n; i++) {
            if (i != 4) {
                assertThat(sinks[i].framesWritten).as("session %d", i).isEqualTo(1);
            }
        }
    }

    /** An unstarted platform thread running {@code body} whose id falls in {@code stripe}. */
    private static Thread threadOfStripe(int stripe, Runnable body) {
        while (true) {
            Thread t = Thread.ofPlatform().unstarted(body);
            if (PendingOutputs.stripeOf(t) == stripe) {
                return t;
            }
        }
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
