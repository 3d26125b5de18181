package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.types.SessionTypes;

/**
 * A failed session closes its connection with {@link org.sessionj.runtime.spi.Connection#closeFailed}: nothing
 * more is owed to the peer, so the failing thread does not wait for it. Before, every failure path called
 * {@code close()}, whose flush waited up to the transport's 10 s linger for a peer that took nothing (blocking
 * tcp: an honest client waited behind a failed one in the tally demo's selector loop), and the failure notice was
 * flushed first, without bound when no send timeout was set. The notice is still written before the close, not
 * flushed; a session that ends well closes as before. The transports' side: {@code FailedCloseTest} in
 * sj-transport-netty and sj-transport-shm.
 */
class FailedSessionCloseTest {
    /** A connection that records, in order, what the session did with it. */
    private static final class Recording extends SinkConnection {
        final List<String> calls = new ArrayList<>();

        @Override
        public void write(ByteBuf frame) {
            calls.add(frame.isReadable() && frame.getByte(frame.readerIndex()) == Tags.FAIL ? "notice" : "frame");
            super.write(frame);
        }

        @Override
        public void flush() {
            calls.add("flush");
        }

        @Override
        public void close() {
            calls.add("close");
            closed = true;
        }

        @Override
        public void closeFailed() {
            calls.add("closeFailed");
            closed = true;
        }
    }

    private static SessionSocket socket(Recording connection, String protocol) {
        return new SessionSocket(connection, StateMachine.compile(SessionTypes.parse(protocol),
                FailedSessionCloseTest.class.getClassLoader()), new SessionSettings(true, 64 * 1024, -1), protocol);
    }

    @Test
    void aSessionThatFailsWritesItsNoticeAndClosesWithoutWaitingForThePeer() {
        Recording connection = new Recording();
        SessionSocket s = socket(connection, "?(int).!<int>");
        connection.toRead.add(Unpooled.buffer().writeByte(Tags.DOUBLE).writeDouble(1.0)); // not an int
        assertThatThrownBy(s::receiveInt).isInstanceOf(SJIOException.class);
        assertThat(connection.calls).containsExactly("notice", "closeFailed");
        s.close(); // the program's close of the failed session: no wait for the peer either (closeFailed is idempotent)
        assertThat(connection.calls).startsWith("notice", "closeFailed").doesNotContain("close", "flush");
    }

    @Test
    void aSessionClosedBeforeItsTypeIsCompleteIsAbandonedWithoutWaitingForThePeer() {
        Recording connection = new Recording();
        SessionSocket s = socket(connection, "!<int>.!<int>.?(int)");
        s.send(1); // batched
        s.close();
        assertThat(connection.calls).as("the batch is dropped, the peer told").containsExactly("notice", "closeFailed");
    }

    @Test
    void aSessionFailedFromAnotherThreadClosesWithoutWaitingForThePeer() throws Exception {
        Recording connection = new Recording();
        SessionSocket s = socket(connection, "?(int)");
        Thread other = Thread.ofPlatform().start(() -> s.failFromElsewhere("another session in its scope failed"));
        other.join();
        assertThat(connection.calls).containsExactly("closeFailed");
    }

    @Test
    void aSessionThatEndsWellClosesAsBefore() {
        Recording connection = new Recording();
        SessionSocket s = socket(connection, "!<int>");
        s.send(1);
        s.close();
        assertThat(connection.calls).doesNotContain("closeFailed", "notice").endsWith("close");
    }
}
