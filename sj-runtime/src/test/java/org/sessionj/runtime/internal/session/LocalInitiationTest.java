package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.Negotiation;
import org.sessionj.runtime.internal.transport.Negotiation.Agreement;
import org.sessionj.runtime.internal.transport.Negotiation.Hello;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.types.Side;

/**
 * The accepter's half of an in-JVM initiation (docs/negotiation.md "In one JVM"): a HELLO and REQUEST
 * passed by reference are answered in kind (the AGREED passed by reference, the verdict as a byte),
 * with the same checks as encoded ones; a by-reference frame on a connection that carries no
 * references, without its message, or with a message of another kind is refused with a reason that
 * says so, like any malformed request.
 */
class LocalInitiationTest {
    @Protocol("sbegin.?(int).!<int>")
    interface Served {
    }

    @Protocol("cbegin.!<int>.?(int)")
    interface Client {
    }

    @Protocol("cbegin.!<String>")
    interface Stranger {
    }

    private static final CompiledProtocol SERVED = ProtocolRegistry.of(Served.class);
    private static final String CLIENT = ProtocolRegistry.of(Client.class).textFor(Side.REQUEST);
    private static final String STRANGER = ProtocolRegistry.of(Stranger.class).textFor(Side.REQUEST);
    private static final List<Negotiation.Offer> OFFERS = List.of(new Negotiation.Offer("shm", 4000, true));
    private static final UUID ACCEPTOR = new UUID(7, 7);
    private static final Hello HELLO = new Hello(Negotiation.R2_UNNECESSARY, TransportManager.RUNTIME_ID, "",
            List.of("shm"));

    /** An in-JVM connection whose peer is the test: frames and references to read, those written kept. */
    private static final class LocalSink extends SinkConnection implements LocalConnection {
        final ArrayDeque<Object> referencesToRead = new ArrayDeque<>();
        /** Every frame written, as bytes (the sink's own count stays 0: {@link #write} keeps them here). */
        final List<byte[]> framesKept = new ArrayList<>();
        final List<Object> referencesWritten = new ArrayList<>();

        LocalSink(int... firstFrame) {
            ByteBuf frame = Unpooled.buffer();
            for (int b : firstFrame) {
                frame.writeByte(b);
            }
            toRead.add(frame);
        }

        @Override
        public void writeReference(Object reference) {
            referencesWritten.add(reference);
        }

        @Override
        public Object readReference() throws IOException {
            Object reference = referencesToRead.poll();
            if (reference == null) {
                throw new IOException("the peer announced a passed reference that never arrived");
            }
            return reference;
        }

        @Override
        public void write(ByteBuf frame) {
            framesKept.add(ByteBufUtil.getBytes(frame));
            frame.release();
        }

        @Override
        public String transportName() {
            return "shm";
        }
    }

    private static SessionSocket accept(org.sessionj.runtime.spi.Connection connection, SJRuntimeConfig config) {
        return Initiation.accept(new AcceptorGroup.Accepted(connection, "shm"), OFFERS, ACCEPTOR, SERVED,
                new SessionContext(null, config, null));
    }

    private static SessionSocket accept(org.sessionj.runtime.spi.Connection connection) {
        return accept(connection, SJRuntimeConfig.defaults());
    }

    @Test
    void aHelloAndRequestPassedByReferenceAreAnsweredInKind() {
        LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);
        connection.referencesToRead.add(HELLO);
        connection.referencesToRead.add(new LocalRequest(CLIENT));

        SessionSocket session = accept(connection);

        assertThat(session).isNotNull();
        assertThat(connection.closed).isFalse();
        assertThat(connection.referencesToRead).as("both messages taken").isEmpty();
        assertThat(connection.referencesWritten).singleElement().isInstanceOfSatisfying(Agreement.class, agreed -> {
            assertThat(agreed.choice()).isEqualTo("shm");
            assertThat(agreed.offers()).isEqualTo(OFFERS);
            assertThat(agreed.acceptor()).isEqualTo(ACCEPTOR);
            assertThat(agreed.flag()).isEqualTo(Negotiation.A1_ONLY_SETUP);
        });
        assertThat(connection.framesKept).singleElement()
                .isEqualTo(new byte[] {Tags.LOCAL_AGREED, Tags.ACCEPT});
        connection.close();
    }

    @Test
    void anIncompatibleRequestPassedByReferenceIsRejectedAfterTheAgreement() {
        LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);
        connection.referencesToRead.add(HELLO);
        connection.referencesToRead.add(new LocalRequest(STRANGER));

        assertThatThrownBy(() -> accept(connection)).isInstanceOf(SJIncompatibleSessionException.class)
                .hasMessageContaining("incompatible session types");

        assertThat(connection.closed).isTrue();
        assertThat(connection.framesKept).singleElement().satisfies(frame -> {
            assertThat(frame[0]).isEqualTo(Tags.LOCAL_AGREED);
            assertThat(frame[1]).isEqualTo(Tags.REJECT);
            assertThat(frame[2]).isEqualTo(Initiation.INCOMPATIBLE);
        });
    }

    @Test
    void theSameRequesterTextAgainGetsTheSameVerdictEachTime() {
        for (String type : new String[] {CLIENT, STRANGER, CLIENT, new String(CLIENT), STRANGER}) {
            LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);
            connection.referencesToRead.add(HELLO);
            connection.referencesToRead.add(new LocalRequest(type));
            if (type.equals(CLIENT)) {
                assertThat(accept(connection)).isNotNull();
            } else {
                assertThatThrownBy(() -> accept(connection)).isInstanceOf(SJIncompatibleSessionException.class);
            }
        }
    }

    @Test
    void aByReferenceHelloOverAConnectionWithoutReferencesIsRefused() {
        SinkConnection connection = new SinkConnection();
        connection.toRead.add(Unpooled.buffer().writeByte(Tags.LOCAL_HELLO).writeByte(Tags.LOCAL_REQUEST));

        assertThatThrownBy(() -> accept(connection)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("an in-JVM HELLO came over sink, a connection that carries no references");

        assertThat(connection.closed).isTrue();
        assertThat(connection.framesWritten).as("the REJECT").isEqualTo(1);
    }

    @Test
    void aByReferenceHelloWithoutItsMessageIsRefused() {
        LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);

        assertThatThrownBy(() -> accept(connection)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("an in-JVM HELLO came without its message");

        assertThat(connection.closed).isTrue();
        assertThat(connection.framesKept).singleElement().satisfies(frame -> {
            assertThat(frame[0]).isEqualTo(Tags.REJECT);
            assertThat(frame[1]).isEqualTo(Initiation.REFUSED);
        });
    }

    @Test
    void aByReferenceHelloPassingSomethingElseIsRefused() {
        LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);
        connection.referencesToRead.add("HELLO");

        assertThatThrownBy(() -> accept(connection)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("an in-JVM HELLO passed a java.lang.String where a Hello was expected");
        assertThat(connection.closed).isTrue();
    }

    @Test
    void aByReferenceRequestWithoutItsMessageIsRefused() {
        LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);
        connection.referencesToRead.add(HELLO);

        assertThatThrownBy(() -> accept(connection)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("an in-JVM session request came without its message");
        assertThat(connection.closed).isTrue();
        assertThat(connection.framesKept).singleElement().satisfies(frame -> {
            assertThat(frame[0]).as("after the agreement").isEqualTo(Tags.LOCAL_AGREED);
            assertThat(frame[1]).isEqualTo(Tags.REJECT);
            assertThat(frame[2]).isEqualTo(Initiation.REFUSED);
        });
    }

    @Test
    void aByReferenceRequestLongerThanTheBoundIsRefusedAsAnEncodedOneIs() {
        LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);
        connection.referencesToRead.add(HELLO);
        // 100 characters, 120 UTF-8 bytes (ü is two): over a bound of 100 bytes only as UTF-8 counts it.
        String type = "cbegin.!<int>.?(int)" + "ü".repeat(20) + "x".repeat(60);
        connection.referencesToRead.add(new LocalRequest(type));
        SJRuntimeConfig bounded = SJRuntimeConfig.builder().maxRequesterTypeBytes(100).build();

        assertThatThrownBy(() -> accept(connection, bounded)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("the requester's session type is 120 bytes long")
                .hasMessageContaining("sessionj.maxRequesterTypeBytes");
        assertThat(connection.closed).isTrue();
    }

    @Test
    void aRequestWithoutTypeIsRefused() {
        LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);
        connection.referencesToRead.add(HELLO);
        connection.referencesToRead.add(new LocalRequest(null));

        assertThatThrownBy(() -> accept(connection)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("the session request carries no type");
    }

    @Test
    void theRequesterFlagIsCheckedAsForAnEncodedHello() {
        LocalSink connection = new LocalSink(Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST);
        connection.referencesToRead.add(new Hello(Negotiation.R1_MANDATORY, TransportManager.RUNTIME_ID, "",
                List.of("shm")));
        connection.referencesToRead.add(new LocalRequest(CLIENT));

        assertThatThrownBy(() -> accept(connection)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("the requester's flag R1 does not match");
    }
}
