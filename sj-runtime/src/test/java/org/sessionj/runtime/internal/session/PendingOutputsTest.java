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
}
