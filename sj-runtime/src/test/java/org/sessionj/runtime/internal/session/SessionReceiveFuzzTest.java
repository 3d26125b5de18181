package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.fuzz.Allocation;
import org.sessionj.runtime.fuzz.Seeds;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.types.SessionTypes;

/**
 * Fuzzes a receiving session end to end: the input is a sequence of frames from the peer (2-byte
 * length, then the frame), and the session follows a protocol that receives every kind of item — all
 * primitives, strings, primitive arrays, flat records and arrays of them, Smile values, branch labels
 * and loop flags — choosing what to do next as the type says. Contract: the session ends, or fails
 * with an {@link SJIOException} (a bad item, a label or tag the type does not allow, a failure notice,
 * a DELEGATE where none is allowed, no more input); never another exception or an {@link Error};
 * every frame it took is released; allocation stays bounded by a multiple of the input.
 *
 * <p>Seeds: {@code src/test/resources/org/sessionj/runtime/internal/session/SessionReceiveFuzzTestInputs/frames}.
 */
class SessionReceiveFuzzTest {
    static final String PROTOCOL = "rec L[?{"
            + "P: ?(int).?(long).?(double).?(float).?(boolean).?(byte).?(short).?(char).#L,"
            + " S: ?(java.lang.String).?(java.lang.Integer).#L,"
            + " A: ?(boolean[]).?(byte[]).?(short[]).?(char[]).?(int[]).?(long[]).?(float[]).?(double[]).#L,"
            + " R: ?(org.sessionj.runtime.fuzz.FuzzMessages$Point).?(org.sessionj.runtime.fuzz.FuzzMessages$Point[]).#L,"
            + " O: ?(java.util.Map<java.lang.String, java.util.List<java.lang.Integer>>)"
            + ".?(org.sessionj.runtime.fuzz.FuzzMessages$Tree).?(org.sessionj.runtime.fuzz.FuzzMessages$Bean).#L,"
            + " W: ?[?(int)]*.#L,"
            + " Q: }]";
    private static final State START = StateMachine.compile(SessionTypes.parse(PROTOCOL),
            SessionReceiveFuzzTest.class.getClassLoader());
    /** Actions after which the session is stopped, so a loop of valid items cannot run for long. */
    private static final int MAX_ACTIONS = 10_000;

    static {
        Seeds.warmUp(SessionReceiveFuzzTest.class, "frames", input -> run(input));
    }

    @FuzzTest
    void frames(byte[] input) {
        Allocation.assertBounded(input.length, () -> run(input));
    }

    private static void run(byte[] input) {
        SinkConnection connection = new SinkConnection();
        List<ByteBuf> frames = new ArrayList<>();
        for (int at = 0; at + 2 <= input.length; ) {
            int length = Math.min(((input[at] & 0xff) << 8) | (input[at + 1] & 0xff), input.length - at - 2);
            ByteBuf frame = Unpooled.buffer(length).writeBytes(input, at + 2, length);
            frames.add(frame);
            connection.toRead.add(frame);
            at += 2 + length;
        }
        SessionSocket session = new SessionSocket(connection, START, new SessionSettings(true, 4096, 0), PROTOCOL);
        try {
            follow(session);
        } catch (SJIOException e) {
            assertThat(e.getMessage()).isNotBlank();
            assertThat(session.hasFailed()).as("the session failed").isTrue();
        }
        session.close();
        connection.toRead.forEach(ByteBuf::release);
        for (ByteBuf frame : frames) {
            assertThat(frame.refCnt()).as("every frame released").isZero();
        }
    }

    /** Does what the type says next until the end (or the session fails). */
    private static void follow(SessionSocket session) {
        for (int actions = 0; actions < MAX_ACTIONS; actions++) {
            State state = session.state();
            switch (state.kind()) {
                case END -> {
                    return;
                }
                case BRANCH -> session.inbranch();
                case INWHILE -> session.inwhile();
                case RECEIVE -> session.receive();
                default -> throw new AssertionError("the protocol only receives, but the state is " + state.describe());
            }
        }
    }
}
