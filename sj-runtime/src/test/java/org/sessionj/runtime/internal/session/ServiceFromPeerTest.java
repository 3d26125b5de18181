package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.internal.monitor.MessageType;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.types.SessionTypes;

/** A service received from a peer is checked at the type level: no class it names is initialised. */
class ServiceFromPeerTest {

    /** Named only by the peer; its initialiser must never run. */
    public enum Tripwire {
        ARMED;

        static {
            Fired.tripwire = true;
        }
    }

    /** Set by the initialiser; reading a field of the enum itself would initialise it. */
    static final class Fired {
        static volatile boolean tripwire;
    }

    private static MessageType declaredService() {
        return ProtocolRegistry.ofType("test", SessionTypes.parse("sbegin.?(cbegin.!<int>.?(int))"),
                ServiceFromPeerTest.class.getClassLoader()).start().message();
    }

    private static ByteBuf serviceItem(String protocol) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(ServicePassing.SERVICE);
        org.sessionj.runtime.internal.wire.ValueCodec.writeString(new ByteBufFrame(out), "localhost");
        out.writeInt(4000);
        org.sessionj.runtime.internal.wire.ValueCodec.writeString(new ByteBufFrame(out), protocol);
        return out;
    }

    @Test
    void aServiceWhoseProtocolNamesAnEnumDoesNotInitialiseIt() {
        ByteBuf in = serviceItem("cbegin.!<" + Tripwire.class.getName() + ">.?(int)");
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(in), declaredService(), null)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("does not match the declared service type");
        assertThat(Fired.tripwire).isFalse();
    }

    @Test
    void aFittingServiceIsAcceptedAtTheTypeLevel() {
        ByteBuf in = serviceItem("cbegin.!<int>.?(int)");
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(in), declaredService(), null)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("belongs to no runtime"); // got past the check
    }

    @Test
    void aServiceOfTheAccepterSideOrNestedPastTheLimitIsRefused() {
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(serviceItem("sbegin.?(int).!<int>")), declaredService(), null))
                .isInstanceOf(SJIOException.class).hasMessageContaining("does not match");
        String deep = "cbegin." + "![".repeat(5000) + "!<int>" + "]*".repeat(5000);
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(serviceItem(deep)), declaredService(), null))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("not usable here");
    }

    /**
     * hostile18 H11: a service's type text is bounded like a requester's ({@code sessionj.maxRequesterTypeBytes})
     * and refused on its claimed length, before it is decoded or parsed (a 15 MiB one made {@code receive()} throw
     * {@code OutOfMemoryError}); its host name is bounded too.
     */
    @Test
    void aServiceWhoseTypeOrHostIsPastItsBoundIsRefusedBeforeItIsDecoded() {
        String longType = "cbegin.!<int>" + ".?(int)".repeat(10_000); // well-formed, 70,013 bytes
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(serviceItem(longType)), declaredService(), null))
                .isInstanceOf(MalformedInputException.class)
                .hasMessage("the received service's protocol is 70013 bytes long; this side accepts at most 65536"
                        + " (sessionj.maxRequesterTypeBytes)");
        ByteBuf claimsMore = Unpooled.buffer();
        claimsMore.writeByte(ServicePassing.SERVICE);
        org.sessionj.runtime.internal.wire.ValueCodec.writeString(new ByteBufFrame(claimsMore), "localhost");
        claimsMore.writeInt(4000).writeInt(16 << 20); // a length claim and nothing behind it
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(claimsMore), declaredService(), null))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("is 16777216 bytes long");
        ByteBuf longHost = Unpooled.buffer();
        longHost.writeByte(ServicePassing.SERVICE);
        org.sessionj.runtime.internal.wire.ValueCodec.writeString(new ByteBufFrame(longHost), "h".repeat(300));
        longHost.writeInt(4000);
        org.sessionj.runtime.internal.wire.ValueCodec.writeString(new ByteBufFrame(longHost), "cbegin.!<int>.?(int)");
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(longHost), declaredService(), null))
                .isInstanceOf(MalformedInputException.class)
                .hasMessage("the received service's host name is 300 bytes long; this side accepts at most 255");
    }
}
