package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.session.LocalRequest;
import org.sessionj.runtime.internal.transport.Negotiation;
import org.sessionj.runtime.internal.transport.Negotiation.Agreement;
import org.sessionj.runtime.internal.transport.Negotiation.Hello;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.transport.shm.ShmTransport;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;

/**
 * The requester's half of an in-JVM initiation (docs/negotiation.md "In one JVM"), seen by a
 * hand-written accepter on a raw in-JVM connection: the HELLO and the REQUEST come as passed
 * references (the request's type text the same object every time, so nothing is encoded or decoded),
 * and an AGREED passed back by reference is taken; the session then runs as any other.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InJvmInitiationTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void theHelloAndTheRequestArePassedByReferenceAndTheAgreementIsTakenSo() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        List<String> types = new ArrayList<>();
        try (ConnectionAcceptor acceptor = new ShmTransport().listen(0)) {
            for (int i = 0; i < 2; i++) {
                int value = 10 + i;
                var requester = Peers.start(Peers.Threads.VIRTUAL, () -> {
                    try (SJSocket s = runtime.service(IntClient.class, "localhost", acceptor.port()).request()) {
                        s.send(value);
                        return s.receiveInt();
                    }
                });
                LocalConnection raw = acceptor.accept(10 * SECOND).capability(LocalConnection.class);
                assertThat(raw).as("an in-JVM connection").isNotNull();

                ByteBuf first = raw.read(10 * SECOND);
                assertThat(ByteBufUtil.getBytes(first)).as("the first frame: tags only")
                        .isEqualTo(new byte[] {Tags.LOCAL_HELLO, Tags.LOCAL_REQUEST});
                first.release();
                assertThat(raw.readReference()).isInstanceOfSatisfying(Hello.class, hello -> {
                    assertThat(hello.runtime()).isEqualTo(TransportManager.RUNTIME_ID);
                    assertThat(hello.session()).containsExactly("shm");
                    assertThat(hello.flag()).isEqualTo(Negotiation.R2_UNNECESSARY);
                    assertThat(hello.acceptor()).isEqualTo(Negotiation.ANY_ACCEPTOR);
                });
                Object request = raw.readReference();
                assertThat(request).isInstanceOf(LocalRequest.class);
                types.add(((LocalRequest) request).type());

                raw.writeReference(new Agreement(Negotiation.A1_ONLY_SETUP,
                        List.of(new Negotiation.Offer("shm", acceptor.port(), true)), "shm", new UUID(1, 1)));
                ByteBuf answer = raw.frameBuffer(2).writeByte(Tags.LOCAL_AGREED).writeByte(Tags.ACCEPT);
                raw.write(answer);

                ByteBuf sent = raw.read(10 * SECOND);
                assertThat(sent.readByte()).isEqualTo(Tags.INT);
                assertThat(sent.readInt()).isEqualTo(value);
                sent.release();
                raw.write(raw.frameBuffer(5).writeByte(Tags.INT).writeInt(-value));
                assertThat(Peers.join(requester)).isEqualTo(-value);
                raw.close();
            }
        }
        assertThat(types.get(0)).as("the requester's type text").startsWith("cbegin.");
        assertThat(types.get(1)).as("the same text object for every session: never copied").isSameAs(types.get(0));
    }
}
