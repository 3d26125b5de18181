package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.fuzz.Allocation;
import org.sessionj.runtime.fuzz.Seeds;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.Negotiation;
import org.sessionj.runtime.internal.wire.MalformedInputException;

/**
 * Fuzzes what an accepter does with the first frame a requester sends (a negotiation HELLO followed by
 * a session REQUEST, or a REQUEST alone, or anything else), and what a requester does with the
 * AGREED it gets back. Contract: the accepter returns a session only for a compatible request and
 * otherwise throws an {@link SJException} (never another exception or an {@link Error}), answers
 * with at most one frame, closes the connection unless it accepted, and releases every buffer;
 * allocation stays bounded by a multiple of the frame.
 *
 * <p>Seeds: {@code src/test/resources/org/sessionj/runtime/internal/session/HandshakeFuzzTestInputs/opening}.
 */
class HandshakeFuzzTest {
    /** The accepter's protocol: loops, a choice, a generic message type. */
    @Protocol("sbegin.?(int).rec LOOP[?{GET: ?(String).!<java.util.List<String>>.#LOOP, QUIT: }]")
    interface Served {
    }

    private static final CompiledProtocol PROTOCOL = ProtocolRegistry.of(Served.class);
    private static final SessionContext CONTEXT = new SessionContext(null, SJRuntimeConfig.defaults(), null);
    private static final List<Negotiation.Offer> OFFERS = List.of(new Negotiation.Offer("tcp", 4000, false),
            new Negotiation.Offer("ipc", 4001, Negotiation.Reach.HOST));
    private static final java.util.UUID ACCEPTOR = new java.util.UUID(7, 7);

    static {
        Seeds.warmUp(HandshakeFuzzTest.class, "opening", input -> run(input));
    }

    @FuzzTest
    void opening(byte[] input) {
        Allocation.assertBounded(input.length, () -> run(input));
    }

    private static void run(byte[] input) {
        SinkConnection connection = new SinkConnection();
        ByteBuf first = Unpooled.buffer(input.length).writeBytes(input);
        connection.toRead.add(first);
        SessionSocket session = null;
        try {
            session = Initiation.accept(new AcceptorGroup.Accepted(connection, "tcp"), OFFERS, ACCEPTOR, PROTOCOL, CONTEXT);
        } catch (SJException e) {
            assertThat(e.getMessage()).isNotBlank();
            assertThat(connection.closed).as("a refused requester's connection is closed").isTrue();
        }
        assertThat(first.refCnt()).as("the opening frame is released").isZero();
        assertThat(connection.framesWritten).as("one answer at most").isLessThanOrEqualTo(1);
        if (session != null) {
            assertThat(connection.closed).isFalse();
            connection.close();
        }

        for (boolean withAcceptor : new boolean[] {false, true}) {
            ByteBuf agreed = Unpooled.wrappedBuffer(input);
            try {
                Negotiation.readAgreement(new ByteBufFrame(agreed), withAcceptor);
            } catch (MalformedInputException e) {
                assertThat(e.getMessage()).isNotBlank();
            } catch (IndexOutOfBoundsException e) {
                throw new AssertionError("readAgreement read past the frame", e);
            }
        }
    }
}
