package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.internal.transport.Negotiation.Agreement;
import org.sessionj.runtime.internal.transport.Negotiation.Hello;
import org.sessionj.runtime.internal.transport.Negotiation.Offer;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.Tags;

class NegotiationCodecTest {

    @Test
    void helloRoundTripsWithTheLayoutOfTheSpecification() throws Exception {
        UUID jvm = new UUID(0x0102030405060708L, 0x1112131415161718L);
        ByteBuf buf = Unpooled.buffer();
        Negotiation.writeHello(new ByteBufFrame(buf), new Hello(Negotiation.R3_NEGOTIATE, jvm, "h1", List.of("shm", "tcp")));
        byte[] expected = {0x43, 'S', 'J', 3, 3, 1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
                0, 2, 'h', '1', 2, 0, 3, 's', 'h', 'm', 0, 3, 't', 'c', 'p',
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}; // no acceptor expected
        byte[] actual = new byte[buf.readableBytes()];
        buf.getBytes(0, actual);
        assertThat(actual).containsExactly(expected);
        assertThat(buf.readByte()).isEqualTo(Tags.HELLO);
        assertThat(Negotiation.readHello(new ByteBufFrame(buf))).isEqualTo(new Hello(3, jvm, "h1", List.of("shm", "tcp")));
        assertThat(buf.isReadable()).isFalse();
    }

    @Test
    void aHelloOrAgreementWrittenAgainIsTheSameBytesAndAnotherOneItsOwn() throws Exception {
        UUID jvm = UUID.randomUUID();
        java.util.ArrayList<String> names = new java.util.ArrayList<>(List.of("shm", "tcp"));
        Hello first = new Hello(Negotiation.R3_NEGOTIATE, jvm, "h1", names);
        ByteBuf once = Unpooled.buffer();
        Negotiation.writeHello(new ByteBufFrame(once), first);
        ByteBuf twice = Unpooled.buffer().writeByte(7); // after something: the encoding is relative
        Negotiation.writeHello(new ByteBufFrame(twice), new Hello(Negotiation.R3_NEGOTIATE, jvm, "h1", List.of("shm", "tcp")));
        assertThat(ByteBufUtil.getBytes(twice, 1, twice.readableBytes() - 1)).isEqualTo(ByteBufUtil.getBytes(once));
        names.set(1, "tls"); // a caller's later change to its list is a different HELLO
        ByteBuf changed = Unpooled.buffer();
        Negotiation.writeHello(new ByteBufFrame(changed), first);
        assertThat(changed.readByte()).isEqualTo(Tags.HELLO);
        assertThat(Negotiation.readHello(new ByteBufFrame(changed)).session()).containsExactly("shm", "tls");

        List<Negotiation.Offer> offers = List.of(new Negotiation.Offer("tcp", 4000, false));
        for (String choice : new String[] {"tcp", null, "tcp"}) {
            ByteBuf agreed = Unpooled.buffer();
            Negotiation.writeAgreement(new ByteBufFrame(agreed), new Negotiation.Agreement(1, offers, choice));
            assertThat(agreed.readByte()).isEqualTo(Tags.AGREED);
            assertThat(Negotiation.readAgreement(new ByteBufFrame(agreed)).choice()).isEqualTo(choice);
        }
    }

    @Test
    void aHelloForARememberedAcceptorCarriesItsIdAndOnlyAnotherAcceptorFindsItStale() throws Exception {
        UUID acceptor = new UUID(5, 6);
        ByteBuf buf = Unpooled.buffer();
        Negotiation.writeHello(new ByteBufFrame(buf), new Hello(Negotiation.R3_NEGOTIATE, UUID.randomUUID(), "h1", List.of("ipc", "tcp"),
                acceptor));
        assertThat(buf.getLong(buf.writerIndex() - 16)).isEqualTo(5);
        assertThat(buf.getLong(buf.writerIndex() - 8)).isEqualTo(6);
        buf.readByte();
        Hello read = Negotiation.readHello(new ByteBufFrame(buf));
        assertThat(read.acceptor()).isEqualTo(acceptor);
        assertThat(read.expectsOtherThan(acceptor)).isFalse();
        assertThat(read.expectsOtherThan(new UUID(5, 7))).isTrue();
        Hello any = new Hello(Negotiation.R3_NEGOTIATE, UUID.randomUUID(), "h1", List.of("tcp"));
        assertThat(any.acceptor()).isEqualTo(Negotiation.ANY_ACCEPTOR);
        assertThat(any.expectsOtherThan(acceptor)).as("a requester that came to the session port").isFalse();
        assertThat(new Hello(2, UUID.randomUUID(), "h1", List.of("tcp"), null).expectsOtherThan(acceptor))
                .as("a version-2 requester expects nothing").isFalse();
    }

    @Test
    void aVersionTwoHelloIsReadWithoutAnAcceptorAndItsAgreedCarriesNone() throws Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[] {'S', 'J', 2, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2,
            0, 2, 'h', '1', 1, 0, 3, 't', 'c', 'p'});
        Hello hello = Negotiation.readHello(new ByteBufFrame(buf));
        assertThat(hello).isEqualTo(new Hello(2, new UUID(1, 2), "h1", List.of("tcp"), null));
        assertThat(buf.isReadable()).isFalse();
        List<Offer> offers = List.of(new Offer("tcp", 4000, false));
        ByteBuf without = Unpooled.buffer();
        Negotiation.writeAgreement(new ByteBufFrame(without), new Agreement(1, offers, "tcp", hello.acceptor()));
        ByteBuf with = Unpooled.buffer();
        Negotiation.writeAgreement(new ByteBufFrame(with), new Agreement(1, offers, "tcp", new UUID(8, 9)));
        assertThat(with.readableBytes()).isEqualTo(without.readableBytes() + 16);
        with.readByte();
        assertThat(Negotiation.readAgreement(new ByteBufFrame(with), true).acceptor()).isEqualTo(new UUID(8, 9));
        assertThat(with.isReadable()).isFalse();
        without.readByte();
        assertThat(Negotiation.readAgreement(new ByteBufFrame(without)).acceptor()).isNull();
        assertThat(without.isReadable()).isFalse();
        ByteBuf truncated = Unpooled.buffer();
        Negotiation.writeAgreement(new ByteBufFrame(truncated), new Agreement(1, offers, "tcp"));
        truncated.readByte();
        assertThatThrownBy(() -> Negotiation.readAgreement(new ByteBufFrame(truncated), true)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("the accepter's acceptor id");
    }

    @Test
    void aVersionOneHelloWithoutAHostIsStillReadAsUnknownHost() throws Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[] {'S', 'J', 1, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2,
            1, 0, 3, 't', 'c', 'p'});
        Hello hello = Negotiation.readHello(new ByteBufFrame(buf));
        assertThat(hello).isEqualTo(new Hello(2, new UUID(1, 2), "", List.of("tcp"), null));
        assertThat(hello.nearness()).isEqualTo(Negotiation.Reach.NETWORK);
    }

    @Test
    void nearnessComesFromTheJvmIdAndTheHostIdentity() {
        UUID other = UUID.randomUUID();
        assertThat(new Hello(2, TransportManager.RUNTIME_ID, "", List.of("tcp")).nearness())
                .isEqualTo(Negotiation.Reach.JVM);
        assertThat(new Hello(2, other, "somewhere-else", List.of("tcp")).nearness()).isEqualTo(Negotiation.Reach.NETWORK);
        assertThat(new Hello(2, other, "", List.of("tcp")).nearness()).as("unknown is never the same host")
                .isEqualTo(Negotiation.Reach.NETWORK);
        if (!HostIdentity.local().isEmpty()) {
            assertThat(new Hello(2, other, HostIdentity.local(), List.of("tcp")).nearness()).isEqualTo(Negotiation.Reach.HOST);
        }
    }

    @Test
    void onLinuxTheHostIdentityNamesBootNamespacesAndUser() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(
                java.nio.file.Path.of("/proc/sys/kernel/random/boot_id")));
        assertThat(HostIdentity.local()).startsWith("linux:").contains("net:[").contains("mnt:[")
                .endsWith(";" + System.getProperty("user.name"));
        assertThat(HostIdentity.isLocal(HostIdentity.local())).isTrue();
        assertThat(HostIdentity.isLocal("")).isFalse();
    }

    @Test
    void agreementHonoursEachTransportsReach() {
        List<Offer> offers = List.of(new Offer("shm", 1, Negotiation.Reach.JVM), new Offer("ipc", 2, Negotiation.Reach.HOST),
                new Offer("tcp", 3, Negotiation.Reach.NETWORK));
        List<String> wanted = List.of("shm", "ipc", "tcp");
        assertThat(Negotiation.agree(wanted, Negotiation.Reach.JVM, offers)).isEqualTo("shm");
        assertThat(Negotiation.agree(wanted, Negotiation.Reach.HOST, offers)).isEqualTo("ipc");
        assertThat(Negotiation.agree(wanted, Negotiation.Reach.NETWORK, offers)).isEqualTo("tcp");
        assertThat(Negotiation.agree(List.of("ipc"), Negotiation.Reach.NETWORK, offers)).isNull();
        assertThat(Negotiation.agree(List.of("shm", "tcp"), Negotiation.Reach.HOST, offers)).as("ipc not on one side")
                .isEqualTo("tcp");
    }

    @Test
    void agreementRoundTripsAndAnEmptyNameMeansNone() throws Exception {
        List<Offer> offers = List.of(new Offer("tcp", 4000, false), new Offer("tls", 4001, false));
        ByteBuf buf = Unpooled.buffer();
        Negotiation.writeAgreement(new ByteBufFrame(buf), new Agreement(Negotiation.A2_SETUP_SUPPORTED, offers, "tls"));
        Negotiation.writeAgreement(new ByteBufFrame(buf), new Agreement(Negotiation.A3_OTHERS_ONLY, offers, null));
        assertThat(buf.readByte()).isEqualTo(Tags.AGREED);
        Agreement first = Negotiation.readAgreement(new ByteBufFrame(buf));
        assertThat(first.choice()).isEqualTo("tls");
        assertThat(first.chosen().port()).isEqualTo(4001);
        assertThat(first.offeredNames()).containsExactly("tcp", "tls");
        assertThat(buf.readByte()).isEqualTo(Tags.AGREED);
        assertThat(Negotiation.readAgreement(new ByteBufFrame(buf)).choice()).isNull();
    }

    @Test
    void malformedHellosNameWhatIsWrong() {
        assertThatThrownBy(() -> Negotiation.readHello(new ByteBufFrame(Unpooled.wrappedBuffer(new byte[] {'S', 'J', 1}))))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("truncated frame");
        assertThatThrownBy(() -> Negotiation.readHello(new ByteBufFrame(hello('X', 1, 2, 1))))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("bad magic");
        assertThatThrownBy(() -> Negotiation.readHello(new ByteBufFrame(hello('J', 9, 2, 1))))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("unsupported negotiation HELLO version 9");
        assertThatThrownBy(() -> Negotiation.readHello(new ByteBufFrame(hello('J', 1, 7, 1))))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("R1, R2 or R3").hasMessageContaining("got 7");
        assertThatThrownBy(() -> Negotiation.readHello(new ByteBufFrame(hello('J', 1, 2, 0))))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("lists no session transports");
    }

    @Test
    void anAgreementOnATransportNotOfferedIsMalformed() {
        ByteBuf buf = Unpooled.buffer();
        buf.writeByte(1).writeByte(1).writeShort(3).writeBytes("tcp".getBytes()).writeInt(1);
        buf.writeShort(3).writeBytes("tls".getBytes());
        assertThatThrownBy(() -> Negotiation.readAgreement(new ByteBufFrame(buf))).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("agreed on transport tls, which it does not offer [tcp]");
    }

    /** hostile18 H12: 240 names of 65,000 bytes were read and quoted whole in the refusal (15.6 MB log lines). */
    @Test
    void aHelloWithTooManyOrTooLongTransportNamesIsMalformed() {
        ByteBuf many = hello('J', 1, 1, 33); // version 1: no host before the count
        for (int i = 0; i < 33; i++) {
            many.writeShort(1).writeByte('x');
        }
        assertThatThrownBy(() -> Negotiation.readHello(new ByteBufFrame(many))).isInstanceOf(MalformedInputException.class)
                .hasMessage("the requester lists 33 session transports; a HELLO names at most 32");
        ByteBuf longName = hello('J', 1, 1, 2);
        longName.writeShort(3).writeBytes("tcp".getBytes()).writeShort(65_000).writeZero(65_000);
        assertThatThrownBy(() -> Negotiation.readHello(new ByteBufFrame(longName))).isInstanceOf(MalformedInputException.class)
                .hasMessage("the requester's session transport 2 has a name of 65000 bytes; a transport name has at most 64");
    }

    private static ByteBuf hello(char magic1, int version, int flag, int count) {
        ByteBuf buf = Unpooled.buffer();
        buf.writeByte('S').writeByte(magic1).writeByte(version).writeByte(flag).writeLong(1).writeLong(2).writeByte(count);
        return buf;
    }
}
