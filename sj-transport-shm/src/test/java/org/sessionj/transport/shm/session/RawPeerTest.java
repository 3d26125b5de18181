package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.transport.shm.ShmTransport;
import org.sessionj.transport.shm.session.TestProtocols.BoxServer;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;
import org.sessionj.transport.shm.session.TestProtocols.PointServer;
import org.sessionj.transport.shm.session.TestProtocols.CalculatorServer;

/**
 * A hand-written peer on a raw connection sends what a correct runtime never would: the session
 * fails with a clear {@link SJIOException}, nothing reaches the program, and the peer is told.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RawPeerTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private final ShmTransport transport = new ShmTransport();

    /** Opens a raw connection and completes initiation with {@code type} as the requester's type. */
    private Connection rawRequest(SJServerSocket server, String type) throws IOException {
        Connection raw = transport.connect("localhost", server.port(), SECOND);
        ByteBuf request = raw.alloc().buffer();
        request.writeByte(0x40).writeByte('S').writeByte('J').writeByte(2);
        byte[] text = type.getBytes(StandardCharsets.UTF_8);
        request.writeInt(text.length).writeBytes(text);
        raw.write(request);
        raw.flush();
        return raw;
    }

    private static void expectAccept(Connection raw) throws IOException {
        ByteBuf reply = raw.read(10 * SECOND);
        try {
            assertThat(reply.readByte()).as("accept frame").isEqualTo((byte) 0x41);
        } finally {
            reply.release();
        }
    }

    private static void send(Connection raw, Consumer<ByteBuf> body) throws IOException {
        ByteBuf frame = raw.alloc().buffer();
        body.accept(frame);
        raw.write(frame);
        raw.flush();
    }

    /** The reason in the failure notice the runtime sent to the raw peer. */
    private static String failureNotice(Connection raw) throws IOException {
        ByteBuf frame = raw.read(10 * SECOND);
        try {
            assertThat(frame.readByte()).as("failure notice tag").isEqualTo((byte) 0x3F);
            int length = frame.readInt();
            return frame.readCharSequence(length, StandardCharsets.UTF_8).toString();
        } finally {
            frame.release();
        }
    }

    private SJSocket acceptWith(SJServerSocket server, String type, Connection[] rawOut) throws Exception {
        var raw = Peers.start(Peers.Threads.VIRTUAL, () -> rawRequest(server, type));
        SJSocket accepted = server.accept();
        rawOut[0] = Peers.join(raw);
        expectAccept(rawOut[0]);
        return accepted;
    }

    @Test
    void aValueOfTheWrongKindFailsTheSession() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.!<int>.?(int)", raw)) {
                send(raw[0], f -> f.writeByte(0x10).writeInt(2).writeBytes("hi".getBytes(StandardCharsets.UTF_8)));
                assertThatThrownBy(s::receiveInt).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("the peer sent a message of kind java.lang.String")
                        .hasMessageContaining("?(int)");
            }
            assertThat(failureNotice(raw[0])).contains("java.lang.String");
        }
    }

    /**
     * adv15 A5: a peer's failure reason goes into this side's exception; a hostile (or merely verbose) peer's
     * 100,000-character reason is cut to its first thousand characters, saying how much was left out.
     */
    @Test
    void aPeersHugeFailureReasonIsCutShort() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.!<int>.?(int)", raw)) {
                byte[] reason = "x".repeat(100_000).getBytes(StandardCharsets.UTF_8);
                send(raw[0], f -> f.writeByte(0x3F).writeInt(reason.length).writeBytes(reason));
                assertThatThrownBy(s::receiveInt).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("the peer failed the session: xxx")
                        .hasMessageContaining("… (99000 more characters)")
                        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(1500));
            }
        }
    }

    /**
     * hostile H8: a peer's failure reason with newlines, NUL and an ANSI escape reaches this side's exception
     * escaped, so a program that logs {@code getMessage()} to a terminal or a line-oriented log is not forged.
     */
    @Test
    void aPeersFailureReasonIsEscaped() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.!<int>.?(int)", raw)) {
                byte[] reason = "line1\nFAKE: injected\u0000\u001b[31m red".getBytes(StandardCharsets.UTF_8);
                send(raw[0], f -> f.writeByte(0x3F).writeInt(reason.length).writeBytes(reason));
                assertThatThrownBy(s::receiveInt).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("the peer failed the session: line1\\nFAKE: injected\\u0000\\u001B[31m red")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("\u001b"));
            }
        }
    }

    @Test
    void anUnknownTagFailsTheSession() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.!<int>.?(int)", raw)) {
                send(raw[0], f -> f.writeByte(0x7E).writeInt(1));
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class).hasMessageContaining("unknown tag 0x7e");
            }
        }
    }

    @Test
    void aTruncatedPrimitiveFailsTheSession() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.!<int>.?(int)", raw)) {
                send(raw[0], f -> f.writeByte(0x01).writeShort(7));
                assertThatThrownBy(s::receiveInt).isInstanceOf(SJIOException.class).hasMessageContaining("truncated");
            }
        }
    }

    private static final String BOX = TestProtocols.Box.class.getName();
    private static final String BOX_TYPE = "cbegin.!<" + BOX + ">.?(" + BOX + ")";
    private static final String POINT = TestProtocols.Point.class.getName();
    private static final String POINT_TYPE = "cbegin.!<" + POINT + ">.?(" + POINT + ")";
    private static final int POINT_FINGERPRINT = (POINT + "(x:int,y:int)").hashCode();

    @Test
    void garbageWhereAnObjectIsExpectedFailsTheSession() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(BoxServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, BOX_TYPE, raw)) {
                send(raw[0], f -> f.writeByte(0x20).writeInt(5).writeBytes(new byte[] {1, 2, 3, 4, 5}));
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("could not decode a " + BOX);
            }
        }
    }

    @Test
    void anObjectOfAnotherShapeIsNotHandedToTheProgram() throws Exception {
        byte[] smile = new ObjectMapper(new SmileFactory()).writeValueAsBytes(Map.of("colour", "not a box"));
        try (SJServerSocket server = SJServerSocket.create(BoxServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, BOX_TYPE, raw)) {
                send(raw[0], f -> f.writeByte(0x20).writeInt(smile.length).writeBytes(smile));
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class).hasMessageContaining("could not decode");
            }
        }
    }

    /**
     * hostile18 H5: a Box whose name is not UTF-8 (a tiny ASCII string holding FF, read as U+FFFD before) fails
     * its session with the path to the text, and the peer is told; another session of the same server, open
     * meanwhile, still gets its Box.
     */
    @Test
    void textThatIsNotUtf8FailsItsSessionAloneNamingThePart() throws Exception {
        byte[] hostile = {':', ')', '\n', 0, (byte) 0xFA, (byte) 0x83, 'n', 'a', 'm', 'e', 0x42, 'a', (byte) 0xFF, 'b',
            (byte) 0xFB};
        byte[] honest = new ObjectMapper(new SmileFactory()).writeValueAsBytes(Map.of("name", "ünï\uD83D\uDE00",
                "values", new int[] {1, 2}));
        try (SJServerSocket server = SJServerSocket.create(BoxServer.class, 0)) {
            Connection[] other = new Connection[1];
            try (SJSocket meanwhile = acceptWith(server, BOX_TYPE, other)) {
                Connection[] raw = new Connection[1];
                try (SJSocket s = acceptWith(server, BOX_TYPE, raw)) {
                    send(raw[0], f -> f.writeByte(0x20).writeInt(hostile.length).writeBytes(hostile));
                    assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class).hasMessageContaining("could not "
                            + "decode a " + BOX + " from the peer's message: at .name: text that is not UTF-8: byte 1 of "
                            + "3 (0xFF) starts no UTF-8 character in text marked ASCII");
                }
                assertThat(failureNotice(raw[0])).contains("at .name: text that is not UTF-8");
                send(other[0], f -> f.writeByte(0x20).writeInt(honest.length).writeBytes(honest));
                TestProtocols.Box box = meanwhile.receive();
                assertThat(box.name).isEqualTo("ünï\uD83D\uDE00");
                assertThat(box.values).containsExactly(1, 2);
                meanwhile.send(box); // the session's type, complete
            }
        }
    }

    @Test
    void aLengthBeyondTheFrameFailsTheSession() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(BoxServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, BOX_TYPE, raw)) {
                send(raw[0], f -> f.writeByte(0x20).writeInt(1_000_000).writeByte(0));
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class).hasMessageContaining("length 1000000");
            }
        }
    }

    @Test
    void aWellFormedRecordIsDelivered() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(PointServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, POINT_TYPE, raw)) {
                send(raw[0], f -> f.writeByte(0x23).writeInt(POINT_FINGERPRINT).writeByte(1).writeInt(3).writeInt(-4));
                assertThat(s.<TestProtocols.Point>receive()).isEqualTo(new TestProtocols.Point(3, -4));
                s.send(new TestProtocols.Point(0, 0));                  // the session's type, complete
            }
        }
    }

    @Test
    void aRecordOfAnotherLayoutFailsTheSession() throws Exception {
        String notice = receivingAPointFails(
                f -> f.writeByte(0x23).writeInt(POINT_FINGERPRINT + 1).writeByte(1).writeInt(3).writeInt(4),
                "another layout", POINT + "(x:int,y:int)");
        assertThat(notice).contains("another layout");
    }

    @Test
    void aTruncatedRecordFailsTheSession() throws Exception {
        receivingAPointFails(f -> f.writeByte(0x23).writeInt(POINT_FINGERPRINT).writeByte(1).writeInt(3).writeShort(4),
                "truncated");
    }

    @Test
    void aBadPresenceByteFailsTheSession() throws Exception {
        receivingAPointFails(f -> f.writeByte(0x23).writeInt(POINT_FINGERPRINT).writeByte(7).writeInt(3).writeInt(4),
                "presence byte 0x07");
    }

    /** The raw peer sends {@code item} where a Point is due: the receive fails naming {@code expected}; returns the notice sent back. */
    private String receivingAPointFails(Consumer<ByteBuf> item, String... expected) throws Exception {
        try (SJServerSocket server = SJServerSocket.create(PointServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, POINT_TYPE, raw)) {
                send(raw[0], item);
                var failure = assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class);
                for (String part : expected) {
                    failure.hasMessageContaining(part);
                }
            }
            return failureNotice(raw[0]);
        }
    }

    @Test
    void aPassedReferenceOfTheWrongClassIsNotHandedToTheProgram() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(PointServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.!<" + TestProtocols.Point.class.getName() + ">.?("
                    + TestProtocols.Point.class.getName() + ")", raw)) {
                LocalConnection local = raw[0].capability(LocalConnection.class);
                local.writeReference("a string, not a point");
                send(raw[0], f -> f.writeByte(0x21));
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("passed a java.lang.String");
            }
        }
    }

    @Test
    void aLabelTheBranchDoesNotOfferFailsTheSession() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(CalculatorServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.rec X[!{ADD: !<int>.!<int>.?(int).#X, QUIT: }]", raw)) {
                send(raw[0], f -> f.writeByte(0x30).writeShort(3).writeBytes("SUB".getBytes(StandardCharsets.UTF_8)));
                assertThatThrownBy(s::inbranch).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("label 'SUB'").hasMessageContaining("does not offer");
            }
        }
    }

    /** hostile17 H7: the label a peer selects is peer text, quoted escaped like the rest. */
    @Test
    void aLabelThePeerSelectsIsQuotedEscaped() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(CalculatorServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.rec X[!{ADD: !<int>.!<int>.?(int).#X, QUIT: }]", raw)) {
                byte[] label = "EC\nFAKE: x\u001b[31m".getBytes(StandardCharsets.UTF_8);
                send(raw[0], f -> f.writeByte(0x30).writeShort(label.length).writeBytes(label));
                assertThatThrownBy(s::inbranch).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("label 'EC\\nFAKE: x\\u001B[31m'")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("\u001b"));
            }
        }
    }

    private static final String STREAM_TYPE = "cbegin.![!<int>]*.?(int)";

    @Test
    void aDelegationNoticeBehindItemsInOneFrameFailsTheSession() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(TestProtocols.StreamServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, STREAM_TYPE, raw)) {
                // A delegating runtime announces the delegation in a frame of its own, never behind items.
                send(raw[0], f -> f.writeByte(0x31).writeByte(1).writeByte(0x01).writeInt(5)
                        .writeByte(0x46).writeLong(1).writeLong(2));
                assertThat(s.inwhile()).isTrue();
                assertThat(s.receiveInt()).isEqualTo(5);
                assertThatThrownBy(s::inwhile).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("where this side expected");
            }
            assertThat(failureNotice(raw[0])).contains("where this side expected");
        }
    }

    @Test
    void aDelegationNoBodyCompletesFailsInBoundedTimeAndClosesTheResumptionEndpoint() throws Exception {
        // The new owner's deadline must outlast the check that the resumption endpoint is open (a loaded
        // machine can hold this thread off the CPU for a second), and stay short enough to wait out.
        SJRuntime runtime = SJRuntime.create(org.sessionj.runtime.SJRuntimeConfig.builder().transports("shm")
                .initiationTimeout(java.time.Duration.ofSeconds(3)).build());
        try (SJServerSocket server = runtime.serverSocket(TestProtocols.StreamServer.class, 0)) {
            var rawFuture = Peers.start(Peers.Threads.VIRTUAL, () -> rawRequest(server, STREAM_TYPE));
            try (SJSocket s = server.accept(java.time.Duration.ofSeconds(10))) {
                Connection raw = Peers.join(rawFuture);
                expectAccept(raw);
                send(raw, f -> f.writeByte(0x46).writeLong(1).writeLong(2)); // DELEGATE, then nobody comes
                var inwhile = Peers.start(Peers.Threads.VIRTUAL, s::inwhile);
                ByteBuf drained = raw.read(10 * SECOND);
                int port;
                try {
                    assertThat(drained.readByte()).as("DRAINED").isEqualTo((byte) 0x47);
                    drained.skipBytes(16);
                    drained.skipBytes(drained.readInt()); // the host
                    port = drained.readInt();
                } finally {
                    drained.release();
                }
                assertThat(transport.canReach("localhost", port)).as("the resumption endpoint is open").isTrue();
                assertThat(Peers.failure(inwhile)).isInstanceOf(org.sessionj.api.SJTimeoutException.class)
                        .hasMessageContaining("new owner did not reconnect");
                assertThat(transport.canReach("localhost", port))
                        .as("no delegation waits: the resumption endpoint is closed again").isFalse();
            }
        }
    }

    /**
     * hostile18 H11: a delegated session's remaining type is the peer's text, bounded like a requester's type
     * ({@code sessionj.maxRequesterTypeBytes}) and refused on its claimed length before it is decoded, parsed or
     * compiled (a passed service's 15 MiB type made {@code receive()} throw {@code OutOfMemoryError}).
     */
    @Test
    void aDelegatedSessionWhoseTypeTextIsPastTheBoundIsRefusedBeforeItIsParsed() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(TestProtocols.DelegationTakerServer.class, 0)) {
            Connection[] raw = new Connection[1];
            try (SJSocket s = acceptWith(server, "cbegin.!<?[?(int).!<int>]*>", raw)) {
                byte[] remaining = ("?[?(int).!<int>]*" + ".?(int)".repeat(10_000)).getBytes(StandardCharsets.UTF_8);
                // SESSION-ITEM, mode 0 (the peer finished), no references, no carried input
                send(raw[0], f -> f.writeByte(0x22).writeByte(2).writeInt(remaining.length).writeBytes(remaining)
                        .writeByte(0).writeInt(0).writeInt(0));
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("the delegated session's remaining type is 70017 bytes long; this side"
                                + " accepts at most 65536 (sessionj.maxRequesterTypeBytes)");
            }
            assertThat(failureNotice(raw[0])).contains("70017 bytes long");
        }
    }

    /** The reason of the REJECT the server answered on {@code raw}. */
    private static String rejection(Connection raw) throws IOException {
        ByteBuf reply = raw.read(10 * SECOND);
        try {
            assertThat(reply.readByte()).as("REJECT").isEqualTo((byte) 0x42);
            reply.readByte(); // the code
            return reply.readCharSequence(reply.readInt(), StandardCharsets.UTF_8).toString();
        } finally {
            reply.release();
        }
    }

    /** accept() never returns nor fails for a refused requester; the server counts it. */
    private static void expectRefusedAndCounted(SJServerSocket server) {
        long deadline = System.nanoTime() + 10 * SECOND;
        while (SJRuntime.failedHandshakes(server) == 0 && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertThat(SJRuntime.failedHandshakes(server)).isEqualTo(1);
        assertThatThrownBy(() -> server.accept(java.time.Duration.ofMillis(100)))
                .isInstanceOf(org.sessionj.api.SJTimeoutException.class);
    }

    @Test
    void aRequestWithAnUnknownWireVersionIsRejected() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            Connection raw = transport.connect("localhost", server.port(), SECOND);
            send(raw, f -> f.writeByte(0x40).writeByte('S').writeByte('J').writeByte(99).writeInt(0));
            assertThat(rejection(raw)).contains("version 99");
            raw.close();
            expectRefusedAndCounted(server);
        }
    }

    @Test
    void aRequestWhoseTypeDoesNotParseIsRejected() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            Connection raw = rawRequest(server, "cbegin.!<int");
            assertThat(rejection(raw)).contains("does not parse");
            raw.close();
            expectRefusedAndCounted(server);
        }
    }
}
