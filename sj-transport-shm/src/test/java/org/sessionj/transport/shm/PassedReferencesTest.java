package org.sessionj.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Frame;

/**
 * Passed references on an in-JVM connection: read in the order written, whatever they are, and none
 * of the reader's bookkeeping kept once they are read (a million idle sessions each read one reference
 * at set-up: a deque held for good per end cost ~130 bytes a session).
 */
@Timeout(10)
class PassedReferencesTest {
    private final ShmConnection[] ends = ShmConnection.pair(null);
    private final ShmConnection writer = ends[0];
    private final ShmConnection reader = ends[1];

    private void announce() throws IOException {
        Frame f = writer.newFrame(16);
        f.writeByte(1);
        writer.writeFrame(f);
    }

    @Test
    void oneReferenceIsReadAndNothingIsKeptAfterIt() throws Exception {
        Object passed = new Object();
        writer.writeReference(passed);
        announce();
        reader.readFrame(-1).release();
        assertThat(reader.holdsReferences()).isTrue();
        assertThat(reader.readReference()).isSameAs(passed);
        assertThat(reader.holdsReferences()).isFalse();
    }

    @Test
    void severalReferencesComeInTheOrderWrittenAndNothingIsKeptAfterThem() throws Exception {
        writer.writeReference("a");
        writer.writeReference("b");
        writer.writeReference("c");
        announce();
        reader.readFrame(-1).release();
        assertThat(reader.readReference()).isEqualTo("a");
        assertThat(reader.readReference()).isEqualTo("b");
        // One more arrives before the last is read: it queues behind it.
        writer.writeReference("d");
        announce();
        reader.readFrame(-1).release();
        assertThat(reader.readReference()).isEqualTo("c");
        assertThat(reader.readReference()).isEqualTo("d");
        assertThat(reader.holdsReferences()).isFalse();
        assertThatThrownBy(reader::readReference).isInstanceOf(IOException.class)
                .hasMessageContaining("never arrived");
    }

    @Test
    void referencesThatLookLikeTheReadersBookkeepingPassUnchanged() throws Exception {
        // A deque, a frame and null are references like any other.
        ArrayDeque<Object> deque = new ArrayDeque<>();
        deque.add("inside");
        Frame frame = writer.newFrame(8);
        writer.writeReference(deque);
        writer.writeReference(null);
        writer.writeReference(frame);
        writer.writeReference(deque);
        announce();
        reader.readFrame(-1).release();
        assertThat(reader.readReference()).isSameAs(deque);
        assertThat(reader.readReference()).isNull();
        assertThat(reader.readReference()).isSameAs(frame);
        assertThat(reader.readReference()).isSameAs(deque);
        assertThat(reader.holdsReferences()).isFalse();
    }

    @Test
    void aSelectorsReadinessCheckKeepsTheReferencesItPassesOver() throws Exception {
        writer.writeReference("x");
        writer.writeReference("y");
        announce();
        assertThat(reader.isReadable()).isTrue();
        reader.readFrame(-1).release();
        assertThat(reader.readReference()).isEqualTo("x");
        assertThat(reader.readReference()).isEqualTo("y");
    }
}
